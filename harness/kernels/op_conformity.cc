#include "kernels/op_conformity.h"

#include "kernels/attr_conformity.h"

#include <algorithm>

#include "core/attributes.h"
#include "core/datatype.h"
#include "kernels/dtype_values.h"
#include "ops/catalogue.h"
#include "scenario/schema_keys.h"

namespace conformance::kernels {
namespace {

using scenario::ErrorList;
using scenario::JoinKeys;
using scenario::Suggestion;

template <typename Named>
std::vector<std::string> NamesOf(const std::vector<Named>& items) {
  std::vector<std::string> names;
  names.reserve(items.size());
  for (const Named& item : items) names.push_back(item.name);
  return names;
}

std::vector<std::string> TypeAttrNames(const ops::OpDef& op) {
  std::vector<std::string> names;
  for (const ops::AttrDef& attr : op.attrs)
    if (attr.type == "type") names.push_back(attr.name);
  return names;
}

std::vector<std::string> DtypeNames(const std::vector<TF_DataType>& dtypes) {
  std::vector<std::string> names;
  names.reserve(dtypes.size());
  for (TF_DataType dtype : dtypes) names.push_back(core::DataTypeName(dtype));
  return names;
}

bool Allows(const std::vector<TF_DataType>& allowed, TF_DataType dtype) {
  return std::find(allowed.begin(), allowed.end(), dtype) != allowed.end();
}

class Conformity {
 public:
  Conformity(KernelScenario& s, const ops::OpDef& op, ErrorList& errors)
      : s_(s), op_(op), errors_(errors) {}

  bool Check() {
    CheckTypeAttrAndDtypes();
    CheckInputs();
    CheckOutputs();
    CheckAttrs();
    return ok_;
  }

 private:
  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }

  void CheckTypeAttrAndDtypes() {
    const ops::AttrDef* attr = op_.FindAttr(s_.type_attr);
    if (attr == nullptr || attr->type != "type") {
      const std::vector<std::string> type_attrs = TypeAttrNames(op_);
      Error(s_.type_attr_at, "type_attr",
            op_.name + " has no type attr '" + s_.type_attr + "'" +
                Suggestion(s_.type_attr, type_attrs) +
                "; its type attrs: " + (type_attrs.empty() ? "none" : JoinKeys(type_attrs)));
      return;
    }
    const std::vector<TF_DataType> allowed = ops::AllowedTypes(op_, s_.type_attr);
    for (std::size_t i = 0; i < s_.dtypes.size(); ++i) {
      if (Allows(allowed, s_.dtypes[i])) continue;
      const std::string name = DtypeName(s_.dtypes[i]);
      const std::vector<std::string> allowed_names = DtypeNames(allowed);
      Error(i < s_.dtype_at.size() ? s_.dtype_at[i] : s_.at, "dtypes",
            op_.name + " does not allow " + s_.type_attr + "=" + name +
                Suggestion(name, allowed_names) + "; it allows " + JoinKeys(allowed_names));
    }
  }

  void CheckInputs() {
    const std::vector<std::string> names = NamesOf(op_.inputs);
    const std::string order = names.empty() ? "none" : JoinKeys(names);
    for (std::size_t i = 0; i < s_.inputs.size(); ++i) {
      const InputSpec& input = s_.inputs[i];
      if (input.name.empty()) continue;  // the parser reported it
      const ops::ArgDef* arg = op_.FindInput(input.name);
      if (arg == nullptr) {
        Error(input.name_at, "name",
              op_.name + " has no input '" + input.name + "'" + Suggestion(input.name, names) +
                  "; its inputs, in order: " + order);
      } else if (i >= names.size() || names[i] != input.name) {
        Error(input.name_at, "name",
              "input '" + input.name + "' is listed at position " + std::to_string(i + 1) + "; " +
                  op_.name + " takes its inputs in this order: " + order);
      } else if (CheckVariable(input, *arg)) {
        CheckInputDtype(input, *arg);
      }
    }
    const bool variadic = std::any_of(op_.inputs.begin(), op_.inputs.end(), [](const auto& arg) {
      return !arg.number_attr.empty() || !arg.type_list_attr.empty();
    });
    if (!variadic && s_.inputs.size() < names.size()) {
      Error(s_.inputs_at, "inputs",
            op_.name + " has " + std::to_string(names.size()) + " inputs (" + order +
                "); this scenario gives " + std::to_string(s_.inputs.size()) + ", add " +
                JoinKeys(std::vector<std::string>(
                    names.begin() + static_cast<std::ptrdiff_t>(s_.inputs.size()), names.end())));
    }
  }

  // A DT_RESOURCE argument takes a variable's handle, and only it does. False when the input
  // is a variable (its dtype is the variable's, not the argument's) or was reported here.
  bool CheckVariable(const InputSpec& input, const ops::ArgDef& arg) {
    const bool resource = arg.type == TF_RESOURCE;
    if (resource && !input.variable) {
      Error(input.name_at, "variable",
            "input '" + input.name + "' of " + op_.name +
                " is a resource (DT_RESOURCE): it takes a variable's handle; write `variable: "
                "true` and the variable's dtype (default: the matrix dtype), its shape (in "
                "shapes) and its values as for any input");
      return false;
    }
    if (!resource && input.variable) {
      Error(input.variable_at, "variable",
            "input '" + input.name + "' of " + op_.name + " is " +
                (arg.type ? DtypeName(*arg.type) : "a " + arg.type_attr) +
                ", not a resource: only a DT_RESOURCE input takes a variable; remove `variable: "
                "true`");
      return false;
    }
    return !resource;
  }

  void CheckInputDtype(const InputSpec& input, const ops::ArgDef& arg) {
    if (!input.dtype) return;
    if (arg.type && *arg.type != *input.dtype) {
      Error(input.name_at, "dtype",
            "input '" + input.name + "' of " + op_.name + " is always " + DtypeName(*arg.type) +
                ", not " + DtypeName(*input.dtype));
      return;
    }
    if (arg.type_attr.empty()) return;
    const std::vector<TF_DataType> allowed = ops::AllowedTypes(op_, arg.type_attr);
    if (!allowed.empty() && !Allows(allowed, *input.dtype)) {
      Error(input.name_at, "dtype",
            "input '" + input.name + "' of " + op_.name + " has type attr " + arg.type_attr +
                ", which does not allow " + DtypeName(*input.dtype) + "; it allows " +
                JoinKeys(DtypeNames(allowed)));
    }
  }

  void CheckOutputs() {
    std::vector<std::string> names = NamesOf(op_.outputs);
    for (const InputSpec& input : s_.inputs) {
      if (input.variable) names.push_back(input.name);  // read after compute
    }
    const std::string listed = names.empty() ? "none" : JoinKeys(names);
    for (const OutputSpec& output : s_.outputs) {
      if (output.name.empty()) continue;  // the parser reported it
      if (output.at.line == 0) {          // the default output
        if (op_.outputs.empty()) {
          Error(s_.at, "outputs",
                op_.name +
                    " has no outputs; list what the case reads after compute under "
                    "outputs (a variable input's name reads the variable): " +
                    listed);
        }
        continue;
      }
      if (op_.FindOutput(output.name) != nullptr || s_.FindVariable(output.name) != nullptr)
        continue;
      // A resource input not declared a variable: reported once, at the input.
      if (const ops::ArgDef* input = op_.FindInput(output.name);
          input && input->type == TF_RESOURCE)
        continue;
      Error(output.at, "name",
            op_.name + " has no output '" + output.name + "'" + Suggestion(output.name, names) +
                "; its outputs and variable inputs: " + listed);
    }
  }

  void CheckAttrs() {
    if (!ConformAttrs(op_, s_.attrs, s_.attr_at, s_.at, errors_)) ok_ = false;
  }

  KernelScenario& s_;
  const ops::OpDef& op_;
  ErrorList& errors_;
  bool ok_ = true;
};

// Where kernel scenarios may take their ops from, for the "unknown op" message.
std::string OpSources(const ops::OpRegistry* registry, PluginOps* plugin_ops) {
  std::string text = registry != nullptr
                         ? "; kernel scenarios run the ops TensorFlow " + registry->release() +
                               " registers (specs/ops/registry)"
                         : "; kernel scenarios run the ops of the op catalogue "
                           "(specs/ops)";
  if (plugin_ops == nullptr) return text;
  if (!plugin_ops->ListingError().empty())
    return text + "; the plugin's own ops could not be listed: " + plugin_ops->ListingError();
  return text + " and the ops the plugin defines (TF_RegisterOpDefinition: " +
         (plugin_ops->Names().empty() ? std::string("none") : JoinKeys(plugin_ops->Names())) + ")";
}

}  // namespace

bool ConformToOpDefinition(KernelScenario& scenario, ErrorList& errors,
                           const ops::OpRegistry* registry, PluginOps* plugin_ops) {
  const ops::OpDef* op = ops::FindOp(scenario.op);
  if (op == nullptr && registry != nullptr) op = registry->Find(scenario.op);
  if (op == nullptr && plugin_ops != nullptr) {
    if (auto broken = plugin_ops->Broken(scenario.op)) {
      errors.Add(
          scenario.at, "op",
          "the plugin defines " + scenario.op +
              ", but TensorFlow rejects its definition (load.kernels.op_definitions): " + *broken);
      return false;
    }
    scenario.plugin_definition = plugin_ops->Find(scenario.op);
    op = scenario.plugin_definition.get();
  }
  if (op == nullptr) {
    std::vector<std::string> names = ops::BuiltInOpNames();
    if (registry != nullptr) {
      for (std::string_view name : registry->OpNames()) names.emplace_back(name);
    }
    if (plugin_ops != nullptr) {
      for (std::string& name : plugin_ops->Names()) names.push_back(std::move(name));
    }
    errors.Add(scenario.at, "op",
               "unknown op '" + scenario.op + "'" + Suggestion(scenario.op, names) +
                   OpSources(registry, plugin_ops));
    return false;
  }
  scenario.definition = op;
  return Conformity(scenario, *op, errors).Check();
}

}  // namespace conformance::kernels
