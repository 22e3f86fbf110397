#include "ops/op_builder.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "ops/spec_parser.h"
#include "run/did_you_mean.h"

namespace conformance::ops {
namespace {

// TensorFlow's rule for op names: CamelCase, or anything starting with '_' (internal ops).
bool IsValidOpName(std::string_view name) {
  if (name.starts_with("_")) return true;
  if (name.empty() || name.front() < 'A' || name.front() > 'Z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '>';
  });
}

std::vector<std::string> AttrNames(const OpDef& op) {
  std::vector<std::string> names;
  for (const auto& attr : op.attrs) names.push_back(attr.name);
  return names;
}

SpecError UnknownAttr(const std::string& spec, int column, const OpDef& op, std::string_view name) {
  SpecError error{spec, column, "Reference to unknown attr " + Quoted(name), {}};
  if (auto guess = ClosestMatch(name, AttrNames(op)))
    error.hint = "did you mean " + Quoted(*guess) + "?";
  return error;
}

// The name an attr spec declares, even when the rest of the spec does not parse.
std::string DeclaredName(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  std::string_view name = spec.substr(0, colon == std::string_view::npos ? 0 : colon);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())) != 0)
    name.remove_suffix(1);
  return std::string(name);
}

// Binds an argument's type name and length name to the op's attrs.
std::optional<SpecError> ResolveArg(const std::string& spec, const OpDef& op, ArgDef& arg) {
  if (!arg.type_attr.empty()) {
    const AttrDef* attr = op.FindAttr(arg.type_attr);
    if (attr == nullptr) return UnknownAttr(spec, arg.type_column, op, arg.type_attr);
    if (attr->type == "list(type)") {
      arg.type_list_attr = std::move(arg.type_attr);
      arg.type_attr.clear();
    } else if (attr->type != "type") {
      return SpecError{spec,
                       arg.type_column,
                       "Reference to attr " + Quoted(arg.type_attr) + " with type " + attr->type +
                           " that isn't type or list(type)",
                       {}};
    }
  }
  if (!arg.number_attr.empty()) {
    const int column = static_cast<int>(spec.find(arg.number_attr, spec.find(':'))) + 1;
    const AttrDef* attr = op.FindAttr(arg.number_attr);
    if (attr == nullptr) return UnknownAttr(spec, column, op, arg.number_attr);
    if (attr->type != "int") {
      return SpecError{spec,
                       column,
                       "Attr " + Quoted(arg.number_attr) + " used as the length of " +
                           Quoted(arg.name) + " has type " + attr->type + " != int",
                       {}};
    }
  }
  return std::nullopt;
}

// A default must itself be a value the attr allows (TensorFlow's ValidateOpDef).
std::optional<std::string> DefaultProblem(const AttrDef& attr) {
  if (!attr.default_text) return std::nullopt;
  const auto& value = attr.default_value;
  if (const auto* dtype = std::get_if<TF_DataType>(&value);
      dtype && !attr.allowed_types.empty() &&
      std::find(attr.allowed_types.begin(), attr.allowed_types.end(), *dtype) ==
          attr.allowed_types.end()) {
    return "Default value " + Quoted(*attr.default_text) +
           " is not one of the allowed types of attr " + Quoted(attr.name);
  }
  if (const auto* text = std::get_if<std::string>(&value);
      text && !attr.allowed_strings.empty() &&
      std::find(attr.allowed_strings.begin(), attr.allowed_strings.end(), *text) ==
          attr.allowed_strings.end()) {
    return "Default value " + Quoted(*attr.default_text) +
           " is not one of the allowed values of attr " + Quoted(attr.name);
  }
  if (!attr.minimum) return std::nullopt;
  if (const auto* number = std::get_if<int64_t>(&value); number && *number < *attr.minimum) {
    return "Default value " + Quoted(*attr.default_text) + " of attr " + Quoted(attr.name) +
           " is less than its minimum " + std::to_string(*attr.minimum);
  }
  if (const auto* list = std::get_if<core::AttrList>(&value)) {
    const auto length = static_cast<int64_t>(std::max(
        {list->s.size(), list->i.size(), list->f.size(), list->b.size(), list->type.size()}));
    if (length < *attr.minimum) {
      return "Default value " + Quoted(*attr.default_text) + " of attr " + Quoted(attr.name) +
             " has fewer than " + std::to_string(*attr.minimum) + " elements";
    }
  }
  return std::nullopt;
}

// TensorFlow's error for an argument naming an attr whose own spec failed: the attr exists with
// an empty type, so the reference fails as a wrong type would.
SpecError ReferenceToTypelessAttr(const std::string& spec, const ArgDef& arg,
                                  const std::set<std::string>& broken) {
  if (broken.contains(arg.type_attr)) {
    return {
        spec,
        arg.type_column,
        "Reference to attr " + Quoted(arg.type_attr) + " with type  that isn't type or list(type)",
        {}};
  }
  const int column = static_cast<int>(spec.find(arg.number_attr, spec.find(':'))) + 1;
  return {spec,
          column,
          "Attr " + Quoted(arg.number_attr) + " used as the length of " + Quoted(arg.name) +
              " has type  != int",
          {}};
}

}  // namespace

OpBuild BuildOpDef(std::string name, const std::vector<std::string>& attrs,
                   const std::vector<std::string>& inputs,
                   const std::vector<std::string>& outputs) {
  OpBuild build;
  auto report = [&build](SpecError error) {
    build.tensorflow_errors.push_back(error);
    build.errors.push_back(std::move(error));
  };
  build.op.name = std::move(name);
  if (!IsValidOpName(build.op.name)) {
    report({build.op.name, 1, "Invalid name: " + build.op.name + " (Did you use CamelCase?)", {}});
  }
  std::set<std::string> names;
  // Attrs whose spec failed: arguments naming them are left out without a second error, so
  // one mistake is reported once.
  std::set<std::string> broken;
  for (const auto& spec : attrs) {
    auto parsed = ParseAttrSpec(spec);
    if (!parsed.ok()) {
      report(parsed.error());
      broken.insert(DeclaredName(spec));
      continue;
    }
    if (auto problem = DefaultProblem(parsed.value())) {
      const int column = static_cast<int>(spec.rfind(*parsed.value().default_text)) + 1;
      report({spec, column, *problem, {}});
      continue;
    }
    if (!names.insert(parsed.value().name).second) {
      report({spec, 1, "Duplicate name: " + parsed.value().name, {}});
      continue;
    }
    build.op.attrs.push_back(std::move(parsed.value()));
  }
  for (const auto* list : {&inputs, &outputs}) {
    auto& args = list == &inputs ? build.op.inputs : build.op.outputs;
    for (const auto& spec : *list) {
      auto parsed = ParseArgSpec(spec);
      if (!parsed.ok()) {
        report(parsed.error());
        continue;
      }
      const ArgDef& arg = parsed.value();
      if (broken.contains(arg.type_attr) || broken.contains(arg.number_attr)) {
        build.tensorflow_errors.push_back(ReferenceToTypelessAttr(spec, arg, broken));
        continue;
      }
      if (auto error = ResolveArg(spec, build.op, parsed.value())) {
        report(*error);
        continue;
      }
      if (!names.insert(parsed.value().name).second) {
        report({spec, 1, "Duplicate name: " + parsed.value().name, {}});
        continue;
      }
      args.push_back(std::move(parsed.value()));
    }
  }
  return build;
}

OpBuild BuildFromRegistration(const core::OpRegistration& registration) {
  OpBuild build =
      BuildOpDef(registration.name, registration.attrs, registration.inputs, registration.outputs);
  build.op.is_commutative = registration.is_commutative;
  build.op.is_aggregate = registration.is_aggregate;
  build.op.is_stateful = registration.is_stateful;
  build.op.allows_uninitialized_input = registration.allows_uninitialized_input;
  return build;
}

OpDef FromRegistration(const core::OpRegistration& registration) {
  return BuildFromRegistration(registration).op;
}

}  // namespace conformance::ops
