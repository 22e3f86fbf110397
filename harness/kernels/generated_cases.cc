#include "kernels/generated_cases.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <variant>

#include "kernels/case_families.h"
#include "kernels/case_json.h"
#include "kernels/complex_values.h"
#include "kernels/cpu_approximations.h"
#include "kernels/declared_precision.h"
#include "kernels/dtype_values.h"
#include "kernels/family_cases.h"
#include "kernels/family_fills.h"
#include "kernels/float64_runs.h"
#include "kernels/host_tensor.h"
#include "kernels/no_cpu_oracle.h"
#include "kernels/random_draws.h"
#include "kernels/string_values.h"
#include "kernels/unconstrained_cells.h"
#include "kernels/value_preconditions.h"
#include "ops/catalogue.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// Every input of a case has this shape: ranks 0 to 5, rank 3 with an empty dimension, an odd
// innermost dimension ([6,6,3]: a vectorised kernel's remainder), none a multiple of a vector
// width.
const std::vector<core::Shape>& SameShapes() {
  static const std::vector<core::Shape> shapes = {
      {}, {7}, {3, 5}, {2, 0, 3}, {6, 6, 3}, {2, 3, 1, 5}, {2, 1, 3, 1, 2}};
  return shapes;
}
const core::Shape kVariantShape = {3, 5};  // where attr variants run

// ±denormals of a floating dtype, or the signed zeros TensorFlow's CPU flushes them to.
std::vector<Number> DenormalValues(TF_DataType dtype, bool flushed) {
  if (!IsFloating(dtype)) return {1.0, 2.0, 3.0};
  const Number positive = flushed ? Number(0.0) : Number(std::string("denorm_min"));
  const Number negative = flushed ? Number(-0.0) : Number(std::string("-denorm_min"));
  return {positive, negative, 1.0, negative, positive, -1.0};
}

bool SuiteHasValues(TF_DataType dtype) { return DtypeFromName(DtypeName(dtype)).has_value(); }

// Ops TensorFlow does not mark stateful whose string inputs name files or patterns of them:
// what they give depends on the machine's files.
bool ReadsTheFileSystem(const std::string& op) { return op == "ReadFile" || op == "MatchingFiles"; }

// At most this many cases per cell (7 shapes, a broadcast pair, special values, 3 denormals
// cases and the attr variants; or a family's cases and the variants): the kernel tier of a
// 300-op plugin stays within a minute.
constexpr std::size_t kMaxCasesPerCell = 32;

// One cell's plan: the dtypes of the type attrs, N of a list input, and what the inputs are.
struct CellPlan {
  std::string op;
  const ops::OpDef* def = nullptr;
  TF_DataType dtype = TF_FLOAT;
  std::string type_attr;                          // the attr the cell's dtype sets; may be empty
  std::map<std::string, TF_DataType> type_attrs;  // every type attr set (type_attr included)
  std::string number_attr;
  std::int64_t number = 1;
  std::vector<std::pair<std::string, TF_DataType>> inputs;  // name, dtype; a list repeated N times
  // Inputs whose tensors each case sets (CaseArgs): a type list (input -> its list(type) attr,
  // one placeholder in `inputs`) and an `N * T` list (input -> its number attr).
  std::map<std::string, std::string> type_lists;
  std::map<std::string, std::string> number_lists;
  // The resource inputs the op's families make variables (case_families.h): each holds its
  // values in a variable on the device, and the case reads it back after the kernel as an
  // output.
  std::set<std::string> variables;
  // The reference inputs the families make variables (ApplyAdam's var, m and v): device tensors
  // the kernel updates in place, each read back after it as an output too.
  std::set<std::string> refs;
  std::vector<ops::ArgDef> outputs;
  json variants = json::array();  // {text, attr, value}: legal non-default attr values
  bool broadcasting = false;
  // The denormals case also runs in float64 on TensorFlow's CPU (a companion): the op allows
  // double for the cell's type attr, which types every input, and the cell is a narrower float.
  bool float64_companion = false;
  // The op's families (case_families.h): their cases replace the same-shape ones.
  std::vector<const CaseFamily*> families;
};

std::optional<TF_DataType> ArgType(const ops::ArgDef& arg, const CellPlan& plan) {
  if (arg.type) return *arg.type;
  auto found = plan.type_attrs.find(arg.type_attr);
  if (found == plan.type_attrs.end()) return std::nullopt;
  return found->second;
}

}  // namespace

// The attr the cell is named after: a stateful random op's draws' dtype (random_draws.h); else
// a resource variable's dtype (VariableCellAttr); else the constrained attr typing the first output
// and an input (Fill's T, not its index_type), else the first output's constrained attr where every
// attr typing an input has a default (StatelessRandomUniform's dtype, not the index dtype T of its
// shape: ops::OutputOnlyCellAttr), else the first input's constrained attr, else the first
// constraint.
std::string PrimaryAttr(const RegisteredKernel& kernel, const ops::OpDef* def) {
  const auto constrained = [&](const std::string& attr) {
    return !attr.empty() &&
           std::any_of(kernel.type_constraints.begin(), kernel.type_constraints.end(),
                       [&](const auto& c) { return c.first == attr; });
  };
  // A stateful random op's cell is its draws' dtype, not its shape input's (random_draws.h).
  if (const StatefulRandomOp* random_op = FindStatefulRandomOp(kernel.op);
      random_op != nullptr && constrained(std::string(random_op->output_attr))) {
    return std::string(random_op->output_attr);
  }
  if (def != nullptr) {
    if (std::string held = VariableCellAttr(*def); constrained(held)) return held;
    const auto types_input = [&](const std::string& attr) {
      return std::any_of(def->inputs.begin(), def->inputs.end(),
                         [&](const ops::ArgDef& input) { return input.type_attr == attr; });
    };
    if (!def->outputs.empty()) {
      const std::string& output_attr = def->outputs.front().type_attr;
      if (constrained(output_attr) && types_input(output_attr)) return output_attr;
    }
    if (std::string output_only = ops::OutputOnlyCellAttr(*def); constrained(output_only))
      return output_only;
    for (const ops::ArgDef& input : def->inputs) {
      if (constrained(input.type_attr)) return input.type_attr;
    }
  }
  return kernel.type_constraints.empty() ? "" : kernel.type_constraints.front().first;
}

namespace {

bool TypesAnInput(const ops::OpDef& def, const std::string& attr) {
  return std::any_of(def.inputs.begin(), def.inputs.end(),
                     [&](const ops::ArgDef& input) { return input.type_attr == attr; });
}

// The dtype of a type attr the registration leaves open: its default, else int32 where
// allowed (index dtypes), else the first allowed dtype the suite has values for.
std::optional<TF_DataType> OpenTypeAttr(const ops::AttrDef& attr) {
  if (const auto* type = std::get_if<TF_DataType>(&attr.default_value)) return *type;
  const auto& allowed = attr.allowed_types;
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), TF_INT32) != allowed.end())
    return TF_INT32;
  for (TF_DataType type : allowed) {
    if (SuiteHasValues(type)) return type;
  }
  return std::nullopt;
}

// Whether every case of the op's families gives `attr` (an attr without a default).
bool FamiliesGive(const std::vector<const CaseFamily*>& families, const std::string& attr) {
  if (families.empty()) return false;
  for (const CaseFamily* family : families) {
    for (const FamilyCase& family_case : family->cases) {
      if (!family_case.attrs.contains(attr) && !family_case.tensor_attrs.contains(attr))
        return false;
    }
  }
  return true;
}

// The count of a list input (_FusedConv3D's num_args, no default) every case of the op's
// families sets alike: the list then has that many tensors, as TensorFlow's graph rewrites make
// them (one bias), instead of the attr's minimum.
std::optional<std::int64_t> FamiliesNumber(const std::vector<const CaseFamily*>& families,
                                           const std::string& attr) {
  if (!FamiliesGive(families, attr)) return std::nullopt;
  std::optional<std::int64_t> number;
  for (const CaseFamily* family : families) {
    for (const FamilyCase& family_case : family->cases) {
      const nlohmann::json& value = family_case.attrs.at(attr);
      if (!value.is_number_integer() || (number && *number != value.get<std::int64_t>()))
        return std::nullopt;
      number = value.get<std::int64_t>();
    }
  }
  return number;
}

// "0.1", not "0.100000": the shortest text that reads back as the value.
std::string FloatText(float value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// A float attr's value other than its default: half of it, which keeps its sign and stays in
// the range an op definition cannot state (LeakyRelu's alpha, an epsilon > 0); 0.5 for a zero
// default. A kernel that ignores the attr and computes with the default is then caught.
float OtherFloat(float default_value) {
  return default_value != 0.0f ? default_value / 2.0f : 0.5f;
}

// The value of a defaulted type attr typing only outputs in a cell of `cell`: its default, or
// where the default is of the other kind than the cell (real, complex) and the attr allows the
// cell's counterpart, that: Complex's double cell makes complex128, Real's complex128 cell
// double (the pairs TensorFlow registers).
TF_DataType OutputOnlyType(const ops::AttrDef& attr, TF_DataType cell) {
  const TF_DataType given = std::get<TF_DataType>(attr.default_value);
  const std::optional<TF_DataType> counterpart = ComplexCounterpart(cell);
  if (counterpart && IsComplex(given) == IsComplex(*counterpart) &&
      std::find(attr.allowed_types.begin(), attr.allowed_types.end(), *counterpart) !=
          attr.allowed_types.end()) {
    return *counterpart;
  }
  return given;
}

// Legal values other than the default: bools flipped, floats halved, every other allowed type
// (that the suite has values for) of an attr typing only outputs (ArgMax's output_type), and
// another string of a defaulted attr.
void AddVariants(const ops::AttrDef& attr, const ops::OpDef& def, CellPlan& plan) {
  if (attr.is_list()) return;
  if (const auto* number = std::get_if<float>(&attr.default_value)) {
    const float other = OtherFloat(*number);
    plan.variants.push_back({{"text", attr.name + "=" + FloatText(other)},
                             {"attr", attr.name},
                             {"value", {{"f", other}}}});
  } else if (const auto* flag = std::get_if<bool>(&attr.default_value)) {
    plan.variants.push_back({{"text", attr.name + "=" + (*flag ? "false" : "true")},
                             {"attr", attr.name},
                             {"value", {{"b", !*flag}}}});
  } else if (std::holds_alternative<TF_DataType>(attr.default_value)) {
    if (TypesAnInput(def, attr.name)) return;  // its inputs would need other values
    const TF_DataType set = OutputOnlyType(attr, plan.dtype);
    const std::optional<TF_DataType> counterpart = ComplexCounterpart(plan.dtype);
    for (TF_DataType allowed : attr.allowed_types) {
      if (allowed == set || !SuiteHasValues(allowed)) continue;
      // Real and complex pair in one precision (RFFT's float makes complex64 only): the
      // counterpart's kind at another precision is no legal variant.
      if (counterpart && set == *counterpart && IsComplex(allowed) == IsComplex(set)) continue;
      plan.variants.push_back({{"text", attr.name + "=" + DtypeName(allowed)},
                               {"attr", attr.name},
                               {"value", {{"type", static_cast<int>(allowed)}}}});
    }
  } else if (const auto* text = std::get_if<std::string>(&attr.default_value)) {
    for (const std::string& allowed : attr.allowed_strings) {
      if (allowed == *text) continue;
      plan.variants.push_back(
          {{"text", attr.name + "=" + allowed}, {"attr", attr.name}, {"value", {{"s", allowed}}}});
      break;
    }
  }
}

// The dtype a resource input's variable holds: the op's `dtype` attr (AssignVariableOp,
// ResourceGather), else its `T` (ResourceApplyAdam), as the registration or the case sets them.
std::optional<TF_DataType> VariableDtype(const CellPlan& plan) {
  for (const char* attr : {"dtype", "T"}) {
    if (const auto found = plan.type_attrs.find(attr); found != plan.type_attrs.end())
      return found->second;
  }
  return std::nullopt;
}

// Whether a family says what a string input's text must be: it is of string_families.yaml, or a
// case gives an input `text:`.
bool GivesText(const CaseFamily* family) {
  if (family->file.ends_with("string_families.yaml")) return true;
  return std::any_of(family->cases.begin(), family->cases.end(), [](const FamilyCase& c) {
    return std::any_of(c.inputs.begin(), c.inputs.end(), [](const auto& input) {
      return input.second.text.has_value() ||
             std::any_of(input.second.elements.begin(), input.second.elements.end(),
                         [](const FamilyInput& element) { return element.text.has_value(); });
    });
  });
}

// The plan for one registered cell, or why its cases cannot be derived from the definition
// and the op's families.
std::variant<CellPlan, std::string> Plan(const RegisteredKernel& kernel, TF_DataType dtype,
                                         const std::string& type_attr, const ops::OpDef& def) {
  CellPlan plan;
  plan.op = kernel.op;
  plan.def = &def;
  plan.dtype = dtype;
  plan.type_attr = type_attr;
  plan.broadcasting = def.broadcasting;
  plan.families = FamiliesOf(kernel.op);
  const bool family = !plan.families.empty();
  // A family's values and literals are numbers: an op whose type attr allows any dtype (XlaPad,
  // Identity) takes text only from a family that says what its text must be (XlaPad of strings
  // aborts TensorFlow's CPU): one of string_families.yaml, or one giving a `text:` input
  // (DecodeCSV's records).
  if (family && dtype == TF_STRING &&
      std::none_of(plan.families.begin(), plan.families.end(), GivesText)) {
    return std::string(
        "its families relate numbers; no family of string_families.yaml gives "
        "it text (string)");
  }
  // No input makes TensorFlow's CPU an oracle for these (no_cpu_oracle.h): say so, rather than
  // what a family would have to relate.
  if (!family) {
    if (const auto found = BuiltinNoCpuOracle().find(kernel.op);
        found != BuiltinNoCpuOracle().end())
      return found->second;
  }
  const auto varied = [&](const std::string& attr) {
    return std::none_of(plan.families.begin(), plan.families.end(), [&](const CaseFamily* f) {
      return std::find(f->no_variants.begin(), f->no_variants.end(), attr) != f->no_variants.end();
    });
  };
  for (const auto& [attr, type] : kernel.type_constraints) {
    plan.type_attrs[attr] = static_cast<TF_DataType>(type);
  }
  std::string missing_default;
  for (const ops::AttrDef& attr : def.attrs) {
    if (plan.type_attrs.contains(attr.name)) continue;
    const bool numbers_input =
        std::any_of(def.inputs.begin(), def.inputs.end(),
                    [&](const auto& a) { return a.number_attr == attr.name; });
    if (numbers_input && plan.number_attr.empty()) {
      plan.number_attr = attr.name;
      const auto* given = std::get_if<std::int64_t>(&attr.default_value);
      const std::optional<std::int64_t> family_number = FamiliesNumber(plan.families, attr.name);
      plan.number = given           ? *given
                    : family_number ? *family_number
                                    : std::max<std::int64_t>(2, attr.minimum.value_or(1));
      continue;
    }
    // A family's ops may leave open the type attrs of their related inputs (an index dtype).
    if (family && attr.type == "type" && TypesAnInput(def, attr.name)) {
      const std::optional<TF_DataType> open = OpenTypeAttr(attr);
      if (!open) return "attr '" + attr.name + "' allows no dtype the suite has values for";
      plan.type_attrs[attr.name] = *open;
      continue;
    }
    if (!attr.default_text) {
      // Said after the inputs' reasons: an input the suite cannot make is the deeper one.
      if (!FamiliesGive(plan.families, attr.name) && missing_default.empty()) {
        missing_default = "attr '" + attr.name + "' (" + attr.type +
                          ") has no default and the registration does not fix it";
      }
      continue;
    }
    if (varied(attr.name)) AddVariants(attr, def, plan);
    // A type attr typing only outputs is set (OutputOnlyType): TensorFlow cannot infer it from
    // the inputs (ArgMax's output_type); its variants set the others.
    if (attr.type == "type" && std::holds_alternative<TF_DataType>(attr.default_value))
      plan.type_attrs[attr.name] = OutputOnlyType(attr, dtype);
  }
  const bool makes_variables = family && FamiliesMakeVariables(def);
  for (const ops::ArgDef& input : def.inputs) {
    if (makes_variables && !input.is_ref && input.type == TF_RESOURCE) {
      // The families' own dtype for it first (an int64 Philox state under a float draw).
      std::optional<TF_DataType> held = FamiliesVariableDtype(def, input.name);
      if (!held) held = VariableDtype(plan);
      if (!held || !SuiteHasValues(*held))
        return "variable input '" + input.name + "' holds a dtype the suite has no values for";
      plan.inputs.emplace_back(input.name, *held);
      plan.variables.insert(input.name);
      continue;
    }
    if (makes_variables && input.is_ref) {
      const std::optional<TF_DataType> held = ArgType(input, plan);
      if (!held || !SuiteHasValues(*held))
        return "reference input '" + input.name + "' has a dtype the suite has no values for";
      plan.inputs.emplace_back(input.name, *held);
      plan.refs.insert(input.name);
      continue;
    }
    if (input.is_ref) return "input '" + input.name + "' is a reference";
    if (!input.type_list_attr.empty()) {
      // Each case of the op's families says the list's dtypes (CaseArgs makes its tensors).
      if (!FamiliesGive(plan.families, input.type_list_attr))
        return "input '" + input.name + "' is a list of types (" + input.type_list_attr + ")";
      plan.type_lists[input.name] = input.type_list_attr;
      plan.inputs.emplace_back(input.name, TF_FLOAT);
      continue;
    }
    if (!family && !input.type && input.type_attr != type_attr) {
      return "input '" + input.name + "' is typed by attr " + input.type_attr +
             ", so its values must relate to the other inputs (no family in "
             "specs/ops/families says how)";
    }
    const auto type = ArgType(input, plan);
    if (type == TF_STRING && ReadsTheFileSystem(def.name)) {
      return "input '" + input.name +
             "' names files: the result is the machine's files, not the kernel's (string)";
    }
    if (type == TF_STRING && def.is_stateful) {
      // A file name, a queue or reader handle, a summary tag: what such an op does to the world
      // is its result, and no value of a case can judge that.
      return "input '" + input.name +
             "' is a string of a stateful op (files, readers, queues, summaries) (string)";
    }
    if (!type || !SuiteHasValues(*type)) {
      // DtypeName spells the dtypes without values by number: "dtype20" is a resource.
      return "input '" + input.name + "' has a dtype the suite has no values for (" +
             (type ? DtypeName(*type) : "unset") + ")";
    }
    const std::int64_t copies = input.number_attr.empty() ? 1 : plan.number;
    if (!input.number_attr.empty()) plan.number_lists[input.name] = input.number_attr;
    for (std::int64_t i = 0; i < copies; ++i) plan.inputs.emplace_back(input.name, *type);
  }
  // An op without inputs (Const, GraphDefVersion, NoOp) is a family's only: its cases are attrs.
  if (plan.inputs.empty() && !family) return std::string("the op has no inputs");
  if (!missing_default.empty()) return missing_default;
  if (!family && IsFloating(dtype) && dtype != TF_DOUBLE && !type_attr.empty()) {
    const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, type_attr);
    const bool allows_double =
        allowed.empty() || std::find(allowed.begin(), allowed.end(), TF_DOUBLE) != allowed.end();
    plan.float64_companion =
        allows_double && std::all_of(def.inputs.begin(), def.inputs.end(), [&](const auto& input) {
          return !input.type && input.type_attr == type_attr;
        });
  }
  for (const ops::ArgDef& output : def.outputs) {
    if (!output.type_list_attr.empty() && !FamiliesGive(plan.families, output.type_list_attr)) {
      return "output '" + output.name + "' is a list of types (" + output.type_list_attr + ")";
    }
    plan.outputs.push_back(output);
  }
  return plan;
}

std::string ShapeText(const core::Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

// Whether a family case is for cells of `dtype` (its `dtypes:`).
bool ForCell(const FamilyCase& family_case, TF_DataType dtype) {
  if (family_case.dtypes.empty()) return true;
  return std::any_of(family_case.dtypes.begin(), family_case.dtypes.end(), [&](const auto& name) {
    // Complex cells have NaN and infinities as floats do, and are not integers.
    if (name == "floating") return IsFloating(dtype) || IsComplex(dtype);
    if (name == "integer") return !IsFloating(dtype) && !IsComplex(dtype) && dtype != TF_BOOL;
    if (name == "complex") return IsComplex(dtype);
    return name == DtypeName(dtype);
  });
}

class CaseWriter {
 public:
  CaseWriter(const CellPlan& plan, const Tolerance& tolerance, std::uint64_t seed, json& cases)
      : plan_(plan),
        id_(KernelCaseId(plan.op, plan.dtype, kGeneratedCaseName)),
        tolerance_(tolerance),
        seed_(seed),
        cases_(cases) {}

  void Random(const std::vector<core::Shape>& shapes, const std::string& text,
              const json& extra_attrs = json::object()) {
    std::vector<HostTensor> inputs;
    for (std::size_t i = 0; i < plan_.inputs.size(); ++i) {
      const TF_DataType dtype = plan_.inputs[i].second;
      InputFill fill;
      if (IsUnsigned(dtype)) fill.min = 0;
      inputs.push_back(MakeInput(fill, dtype, shapes[std::min(i, shapes.size() - 1)],
                                 InputSeed(seed_, id_, next_index_, i, 0)));
    }
    Write(inputs, text, extra_attrs);
  }

  // Input i holds the special values rotated by 3 * i, so binary ops meet them in pairs.
  void Special() {
    Values([](TF_DataType dtype) { return SpecialValues(dtype); }, "special values");
  }

  // Floating inputs of ±denormals, and a companion case with ±0 in their place: TensorFlow's
  // CPU kernels flush denormal inputs to zero, and where its two results are equal the
  // denormals case is not judged (tensorflow_cpu_oracle.cc). A second companion runs the same
  // values in float64, where they are normal numbers: where TensorFlow's CPU neither flushes nor
  // agrees with float64 (Lgamma gives 103.97 for every float denormal, where the values are
  // 103.28 and 92.10), it is no oracle and the case is judged against float64 too. Nothing for
  // other dtypes.
  void Denormals() {
    const bool floating = std::any_of(plan_.inputs.begin(), plan_.inputs.end(),
                                      [](const auto& input) { return IsFloating(input.second); });
    if (!floating) return;
    const std::size_t denormals = next_index_;
    json links = {{"flushed_companion", denormals + 1}};
    if (plan_.float64_companion) links["float64_companion"] = denormals + 2;
    Values([](TF_DataType dtype) { return DenormalValues(dtype, false); }, "denormals", links);
    Values([](TF_DataType dtype) { return DenormalValues(dtype, true); },
           "denormals flushed to zero", {{"companion", true}});
    if (!plan_.float64_companion) return;
    // The cell dtype's denormals as float64 values (normal numbers there).
    Values(
        [](TF_DataType dtype) {
          std::vector<Number> values = DenormalValues(dtype, false);
          for (Number& value : values) {
            if (const auto* name = std::get_if<std::string>(&value))
              value = SpecialValue(dtype, *name).value_or(0.0);
          }
          return values;
        },
        "denormals in float64", {{"companion", true}}, TF_DOUBLE);
  }

  // One case of the op's family, with `extra_attrs` over the case's own; false when it is not
  // for this cell (a fill the dtype lacks) or cannot be made.
  // The tolerance of the cases written next (a family's own: WriteFamilyCases).
  void SetTolerance(const Tolerance& tolerance) { tolerance_ = tolerance; }

  bool Family(const FamilyCase& family_case, const json& extra_attrs = json::object(),
              const std::string& suffix = "") {
    if (!ForCell(family_case, plan_.dtype)) return false;
    const auto attrs = FamilyCaseAttrs(family_case, *plan_.def, plan_.type_attrs);
    if (std::holds_alternative<std::string>(attrs)) return false;
    json merged = std::get<json>(attrs);
    const std::size_t index = next_index_;
    // Seeded apart from the inputs' (input numbers past the op's).
    const auto tensor_attrs = FamilyTensorAttrs(
        family_case, *plan_.def, plan_.dtype,
        [&](std::size_t k) { return InputSeed(seed_, id_, index, plan_.inputs.size() + k, 0); });
    if (!std::holds_alternative<json>(tensor_attrs)) return false;
    for (const auto& [name, value] : std::get<json>(tensor_attrs).items()) merged[name] = value;
    for (const auto& [name, value] : extra_attrs.items()) merged[name] = value;
    const std::optional<Args> args = CaseArgs(merged);
    if (!args) return false;
    auto inputs = FamilyCaseInputs(family_case, *args, [&](std::size_t input) {
      return InputSeed(seed_, id_, index, input, 0);
    });
    auto* tensors = std::get_if<std::vector<HostTensor>>(&inputs);
    if (tensors == nullptr) return false;
    json extra = json::object();
    if (!family_case.cpu_status.empty()) extra["cpu_status"] = family_case.cpu_status;
    Write(std::move(*tensors), family_case.variant + suffix, merged, extra, *args);
    return true;
  }

 private:
  using Args = std::vector<std::pair<std::string, TF_DataType>>;

  // The case's inputs (name, dtype) where its attrs size or type a list: a type list has one
  // tensor per dtype of its attr, an `N * T` list as many as the case's N. nullopt where a type
  // list holds a dtype other than the one the registration constrains it to (a kernel
  // registered for IdentityN's T = float runs lists of float only, as TensorFlow matches it).
  std::optional<Args> CaseArgs(const json& attrs) const {
    Args args;
    for (std::size_t i = 0; i < plan_.inputs.size();) {
      const std::string& name = plan_.inputs[i].first;
      std::size_t end = i;
      while (end < plan_.inputs.size() && plan_.inputs[end].first == name) ++end;
      if (const auto list = plan_.type_lists.find(name); list != plan_.type_lists.end()) {
        const auto given = attrs.find(list->second);
        if (given == attrs.end() || !given->contains("list_type")) return std::nullopt;
        const auto constrained = plan_.type_attrs.find(list->second);
        for (const json& type : given->at("list_type")) {
          const auto dtype = static_cast<TF_DataType>(type.get<int>());
          if (constrained != plan_.type_attrs.end() && constrained->second != dtype)
            return std::nullopt;
          if (!SuiteHasValues(dtype)) return std::nullopt;
          args.emplace_back(name, dtype);
        }
      } else if (const auto number = plan_.number_lists.find(name);
                 number != plan_.number_lists.end() && attrs.contains(number->second) &&
                 attrs.at(number->second).contains("i")) {
        const auto copies = attrs.at(number->second).at("i").get<std::int64_t>();
        for (std::int64_t copy = 0; copy < copies; ++copy)
          args.emplace_back(name, plan_.inputs[i].second);
      } else {
        args.insert(args.end(), plan_.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                    plan_.inputs.begin() + static_cast<std::ptrdiff_t>(end));
      }
      i = end;
    }
    return args;
  }

  // `as`: the case runs in that dtype instead (every input and the type attr), with the values
  // meant for the cell's dtype.
  template <typename ValuesOf>
  void Values(const ValuesOf& values_of, const std::string& text, const json& extra = {},
              std::optional<TF_DataType> as = std::nullopt) {
    std::vector<HostTensor> inputs;
    for (std::size_t i = 0; i < plan_.inputs.size(); ++i) {
      const TF_DataType dtype = plan_.inputs[i].second;
      if (dtype == TF_STRING) {  // the edge strings, rotated as the numbers are
        const std::vector<std::string>& strings = SpecialStrings();
        inputs.push_back(StringTensor(strings, {static_cast<std::int64_t>(strings.size())}, 3 * i));
        continue;
      }
      std::vector<Number> values = values_of(dtype);
      std::rotate(values.begin(),
                  values.begin() + static_cast<std::ptrdiff_t>((3 * i) % values.size()),
                  values.end());
      InputFill fill;
      fill.kind = InputFill::Kind::kValues;
      fill.values = values;
      // A complex input's values are its parts, two an element (complex_values.h).
      const auto elements = static_cast<std::int64_t>(values.size() / (IsComplex(dtype) ? 2 : 1));
      inputs.push_back(MakeInput(fill, as.value_or(dtype), {elements}, 0));
    }
    json attrs = json::object();
    if (as) attrs[plan_.type_attr] = {{"type", static_cast<int>(*as)}};
    Write(std::move(inputs), text, attrs, extra);
  }

  // How many tensors an output is: N of a list input's attr, or of an attr the case sets
  // (Split's num_split); a type list output (IdentityN's) as many as its attr has dtypes.
  std::int64_t Copies(const ops::ArgDef& output, const json& attrs) const {
    if (!output.type_list_attr.empty()) {
      const auto found = attrs.find(output.type_list_attr);
      return found != attrs.end() && found->contains("list_type")
                 ? static_cast<std::int64_t>(found->at("list_type").size())
                 : 0;
    }
    if (output.number_attr.empty()) return 1;
    const auto found = attrs.find(output.number_attr);
    if (found != attrs.end() && found->contains("i")) return found->at("i").get<std::int64_t>();
    return output.number_attr == plan_.number_attr ? plan_.number : 1;
  }

  // `args`: the inputs' names and dtypes where the case sets them (CaseArgs), else the plan's.
  void Write(std::vector<HostTensor> inputs, const std::string& text, const json& extra_attrs,
             const json& extra = json::object(), const std::optional<Args>& case_args = {}) {
    if (next_index_ >= kMaxCasesPerCell) return;
    const Args& args = case_args ? *case_args : plan_.inputs;
    MeetValuePreconditions(plan_.op, args, inputs);
    json attrs = json::object();
    for (const auto& [attr, type] : plan_.type_attrs)
      attrs[attr] = {{"type", static_cast<int>(type)}};
    if (!plan_.number_attr.empty()) attrs[plan_.number_attr] = {{"i", plan_.number}};
    for (const auto& [name, value] : extra_attrs.items()) attrs[name] = value;
    json input_json = json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      json tensor = TensorJson(inputs[i]);
      tensor["name"] = args[i].first;
      if (plan_.variables.contains(args[i].first)) tensor["variable"] = true;
      if (plan_.refs.contains(args[i].first)) tensor["ref"] = true;
      input_json.push_back(std::move(tensor));
    }
    json outputs = json::array();
    for (const ops::ArgDef& output : plan_.outputs) {
      const bool unjudged =
          std::any_of(plan_.families.begin(), plan_.families.end(), [&](const CaseFamily* f) {
            return std::find(f->unjudged_outputs.begin(), f->unjudged_outputs.end(), output.name) !=
                   f->unjudged_outputs.end();
          });
      const bool undefined =
          std::any_of(plan_.families.begin(), plan_.families.end(), [&](const CaseFamily* f) {
            return std::find(f->undefined_values.begin(), f->undefined_values.end(), output.name) !=
                   f->undefined_values.end();
          });
      for (std::int64_t i = 0; i < Copies(output, attrs); ++i) {
        outputs.push_back({{"name", output.name}});
        if (unjudged) outputs.back()["unjudged"] = true;
        if (undefined) outputs.back()["values_undefined"] = true;
      }
    }
    // Then every variable's value after the kernel, in input order: an update is the op's
    // result even where it has no outputs (ResourceApplyAdam).
    for (const auto& [name, dtype] : plan_.inputs) {
      if (plan_.variables.contains(name) || plan_.refs.contains(name))
        outputs.push_back({{"name", name}, {"variable", true}});
    }
    cases_.push_back(
        {{"id", id_},
         {"op", plan_.op},
         {"scenario", kGeneratedCaseName},
         {"dtype", DtypeName(plan_.dtype)},
         {"type_attr", plan_.type_attr},
         {"shape_index", next_index_++},
         {"attrs", attrs},
         {"inputs", input_json},
         {"outputs", outputs},
         {"tolerance",
          {{"rtol", tolerance_.rtol}, {"atol", tolerance_.atol}, {"ulp", tolerance_.ulp}}},
         {"expect", {{"kind", "reference"}}},
         {"generated", true},
         {"variant", text}});
    for (const auto& [key, value] : extra.items()) cases_.back()[key] = value;
  }

  const CellPlan& plan_;
  std::string id_;
  Tolerance tolerance_;
  std::uint64_t seed_;
  json& cases_;
  std::size_t next_index_ = 0;
};

// Why a cell without a family gets no same-shape cases: TensorFlow's CPU refuses every one of
// them, or dies on one (a crash the --tensorflow route would blame on the plugin's kernel).
std::optional<std::string> RefusedSameShapes(const CellPlan& plan) {
  if (!plan.families.empty()) return std::nullopt;
  const auto found = BuiltinSameShapeRefusals().find(plan.op);
  if (found == BuiltinSameShapeRefusals().end()) return std::nullopt;
  if (found->second == "rejected") {
    return "TensorFlow's CPU rejects every same-shape case of the op: its inputs must relate in "
           "ways no family in specs/ops/families describes yet";
  }
  if (found->second == "fatal") {
    return "TensorFlow's CPU dies on a same-shape case of the op (no oracle; no family in "
           "specs/ops/families describes its inputs yet)";
  }
  return std::nullopt;
}

// The tolerance `family` declares for `dtype`; for a complex dtype without one, that for its
// part dtype (each part is held to it: complex_values.h).
std::optional<Tolerance> OwnTolerance(const CaseFamily& family, TF_DataType dtype) {
  for (const TF_DataType each : {dtype, ComplexPartDtype(dtype)}) {
    if (const auto found = family.tolerances.find(each); found != family.tolerances.end())
      return found->second;
  }
  return std::nullopt;
}

// The tolerance of the op's first family declaring one for `dtype`: the cell's.
std::optional<Tolerance> FamilyTolerance(const std::string& op, TF_DataType dtype) {
  for (const TF_DataType each : {dtype, ComplexPartDtype(dtype)}) {
    for (const CaseFamily* family : FamiliesOf(op)) {
      if (const auto found = family->tolerances.find(each); found != family->tolerances.end())
        return found->second;
    }
  }
  return std::nullopt;
}

// The cell's tolerance made final: at least the ULP TensorFlow's CPU approximations need, and
// widened by the vendor's declared precision.
using FinishTolerance = std::function<Tolerance(Tolerance)>;

// A family op's cases: every case of its families, each at its family's own tolerance where it
// declares one for the cell's dtype (_FusedMatMul's activation of the bias alone sums nothing,
// so it is held tighter than the products), then each attr variant on the first case that is
// for this cell.
void WriteFamilyCases(const CellPlan& plan, const Tolerance& cell_tolerance,
                      const FinishTolerance& finish, CaseWriter& writer) {
  const FamilyCase* first = nullptr;
  const CaseFamily* first_family = nullptr;
  const auto tolerance_of = [&](const CaseFamily& family) {
    const std::optional<Tolerance> own = OwnTolerance(family, plan.dtype);
    return own ? finish(*own) : cell_tolerance;
  };
  for (const CaseFamily* family : plan.families) {
    writer.SetTolerance(tolerance_of(*family));
    for (const FamilyCase& family_case : family->cases) {
      if (writer.Family(family_case) && first == nullptr) {
        first = &family_case;
        first_family = family;
      }
    }
  }
  if (first == nullptr) return;
  writer.SetTolerance(tolerance_of(*first_family));
  for (const json& variant : plan.variants) {
    writer.Family(*first, {{variant.at("attr").get<std::string>(), variant.at("value")}},
                  ", " + variant.at("text").get<std::string>());
  }
}

void WriteCases(const CellPlan& plan, const Tolerance& tolerance, const FinishTolerance& finish,
                std::uint64_t seed, json& cases) {
  CaseWriter writer(plan, tolerance, seed, cases);
  if (!plan.families.empty()) {
    WriteFamilyCases(plan, tolerance, finish, writer);
    return;
  }
  for (const core::Shape& shape : SameShapes()) {
    writer.Random({shape}, "rank " + std::to_string(shape.size()) + " " + ShapeText(shape));
  }
  if (plan.broadcasting && plan.inputs.size() == 2) {
    writer.Random({{2, 1, 5}, {3, 1}}, "broadcast [2,1,5] with [3,1]");
  }
  writer.Special();
  writer.Denormals();
  for (const json& variant : plan.variants) {
    writer.Random({kVariantShape},
                  variant.at("text").get<std::string>() + " " + ShapeText(kVariantShape),
                  {{variant.at("attr").get<std::string>(), variant.at("value")}});
  }
}

}  // namespace

json GenerateCases(const std::vector<RegisteredKernel>& kernels,
                   const std::vector<KernelScenario>& scenarios, const ops::OpRegistry& registry,
                   const std::vector<DeclaredPrecision>& precision, std::uint64_t seed,
                   bool measuring) {
  std::set<std::pair<std::string, int>> covered;
  for (const KernelScenario& scenario : scenarios) {
    for (TF_DataType dtype : scenario.dtypes) covered.emplace(scenario.op, static_cast<int>(dtype));
  }
  json result = {{"cases", json::array()}, {"not_generated", json::array()}};
  std::set<std::pair<std::string, int>> done;
  // A kernel of every dtype is judged at each (unconstrained_cells.h), after the plugin's own
  // kernels of a cell, which come first.
  for (const RegisteredKernel& kernel : WithUnconstrainedCells(kernels, registry)) {
    const ops::OpDef* def = registry.Find(kernel.op);
    if (def == nullptr) continue;  // the load tier names kernels of ops TensorFlow lacks
    const std::string type_attr = PrimaryAttr(kernel, def);
    const std::optional<TF_DataType> cell_dtype = CellDtype(kernel, def);
    if (!cell_dtype) continue;  // a kernel for every dtype: no cell to name
    const TF_DataType dtype = *cell_dtype;
    // A built-in scenario's cell still gets its family's cases: the inputs real defects need
    // (an empty axis, values above 2^24) are in no scenario.
    const bool scenario_covered = covered.contains({kernel.op, static_cast<int>(dtype)});
    // Draws differ on every call: random_draws.h judges them, no recorded value can.
    if (FindStatefulRandomOp(kernel.op) != nullptr) continue;
    if (!SuiteHasValues(dtype) || (scenario_covered && FamiliesOf(kernel.op).empty()) ||
        !done.emplace(kernel.op, static_cast<int>(dtype)).second) {
      continue;
    }
    auto plan = Plan(kernel, dtype, type_attr, *def);
    if (std::holds_alternative<CellPlan>(plan) && !measuring) {
      if (auto why = RefusedSameShapes(std::get<CellPlan>(plan))) plan = std::move(*why);
    }
    if (const auto* why = std::get_if<std::string>(&plan)) {
      result["not_generated"].push_back({{"id", KernelCaseId(kernel.op, dtype, kGeneratedCaseName)},
                                         {"op", kernel.op},
                                         {"dtype", DtypeName(dtype)},
                                         {"reason", *why}});
      continue;
    }
    const FinishTolerance finish = [&](Tolerance base) {
      base.ulp = std::max(base.ulp, CpuApproximationUlp(kernel.op, dtype));
      return Widen(base, FindDeclaration(precision, kernel.op, dtype, kGeneratedCaseName));
    };
    const Tolerance tolerance =
        finish(FamilyTolerance(kernel.op, dtype).value_or(KernelScenario{}.ToleranceFor(dtype)));
    const std::size_t before = result["cases"].size();
    WriteCases(std::get<CellPlan>(plan), tolerance, finish, seed, result["cases"]);
    for (std::size_t i = before; i < result["cases"].size(); ++i) {
      json& written = result["cases"][i];
      if (auto run = Float64Run(written)) written[kFloat64RunKey] = std::move(*run);
    }
    // A family whose cases all name other dtypes (Round's, floating only): said, not silent.
    if (result["cases"].size() == before) {
      result["not_generated"].push_back(
          {{"id", KernelCaseId(kernel.op, dtype, kGeneratedCaseName)},
           {"op", kernel.op},
           {"dtype", DtypeName(dtype)},
           {"reason", "no case of the op's family is for " + DtypeName(dtype) +
                          " (its family in specs/ops/families says why)"}});
    }
  }
  return result;
}

std::optional<TF_DataType> CellDtype(const RegisteredKernel& kernel, const ops::OpDef* def) {
  const std::string type_attr = PrimaryAttr(kernel, def);
  if (!type_attr.empty()) {
    return static_cast<TF_DataType>(
        std::find_if(kernel.type_constraints.begin(), kernel.type_constraints.end(),
                     [&](const auto& c) { return c.first == type_attr; })
            ->second);
  }
  if (def != nullptr && !def->inputs.empty() && def->inputs.front().type) {
    // A variable no attr types (VarIsInitializedOp, RngSkip): the dtype its families give it,
    // which is what the case's values are.
    if (*def->inputs.front().type == TF_RESOURCE && !def->inputs.front().is_ref) {
      if (const auto held = FamiliesVariableDtype(*def, def->inputs.front().name)) return held;
    }
    return *def->inputs.front().type;  // an op of fixed dtypes (LogicalAnd: bool)
  }
  // An op without inputs or type attrs: its first output's dtype (GraphDefVersion: int32), and
  // one with no outputs either (NoOp, ControlTrigger) has one cell, named float as the
  // coverage page names an op's cell where it may choose.
  if (def != nullptr && def->inputs.empty() && kernel.type_constraints.empty()) {
    if (def->outputs.empty()) return TF_FLOAT;
    if (def->outputs.front().type) return *def->outputs.front().type;
  }
  return std::nullopt;
}

std::string VariableCellAttr(const ops::OpDef& def) {
  const bool resource = std::any_of(def.inputs.begin(), def.inputs.end(), [](const auto& input) {
    return !input.is_ref && input.type == TF_RESOURCE;
  });
  if (!resource) return "";
  for (const char* name : {"dtype", "T"}) {
    const ops::AttrDef* attr = def.FindAttr(name);
    if (attr != nullptr && attr->type == "type") return name;
  }
  return "";
}

bool IsGeneratedCaseId(const std::string& id) {
  const std::string suffix = std::string(".") + kGeneratedCaseName;
  return id.starts_with("kernel.") && id.ends_with(suffix);
}

}  // namespace conformance::kernels
