#include "kernels/kernel_parser.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/op_conformity.h"
#include "run/did_you_mean.h"
#include "kernels/yaml_location.h"
#include "model/name_syntax.h"
#include "scenario/schema_keys.h"
#include "scenario/status_codes.h"

namespace conformance::kernels {
namespace {

using scenario::ErrorList;
using scenario::JoinKeys;
using scenario::Suggestion;

const std::vector<std::string> kFileKeys = {"kernels", "tensorflow", "fix"};
const std::vector<std::string> kScenarioKeys = {
    "op",     "name",   "rule",    "tensorflow", "fix",       "type_attr", "dtypes",
    "shapes", "inputs", "outputs", "attrs",      "tolerance", "expect"};
const std::vector<std::string> kInputKeys = {"name",   "dtype", "random",
                                             "values", "range", "variable"};
const std::vector<std::string> kRandomKeys = {"min", "max", "seed_offset"};
const std::vector<std::string> kRangeKeys = {"start", "step"};
const std::vector<std::string> kOutputKeys = {"name", "dtype"};
const std::vector<std::string> kToleranceKeys = {"rtol", "atol", "ulp"};
const std::vector<std::string> kExpectKeys = {"error", "outputs"};
const std::vector<std::string> kExpectedOutputKeys = {"shape", "values"};

std::string Describe(const YAML::Node& node) {
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "nothing";
  return "'" + node.Scalar() + "'";
}

class Parser {
 public:
  Parser(ErrorList& errors, const ops::OpRegistry* registry, PluginOps* plugin_ops)
      : errors_(errors), registry_(registry), plugin_ops_(plugin_ops) {}

  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }
  bool ok() const { return ok_; }
  void Reset() { ok_ = true; }

  // Unknown keys (with a suggestion), duplicates, and missing required keys.
  bool CheckKeys(const YAML::Node& map, const std::string& what,
                 const std::vector<std::string>& allowed,
                 const std::vector<std::string>& required) {
    if (!map.IsMap()) {
      Error(LocationOf(map), "", what + ": expected a mapping, got " + Describe(map));
      return false;
    }
    bool good = true;
    std::set<std::string> seen, suggested;
    for (const auto& pair : map) {
      const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : "";
      if (!seen.insert(key).second) {
        Error(LocationOf(pair.first), key, "duplicate key in " + what);
        good = false;
      } else if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        if (auto match = ClosestMatch(key, allowed)) suggested.insert(*match);
        Error(LocationOf(pair.first), key,
              "unknown key in " + what + Suggestion(key, allowed) +
                  "; allowed keys: " + JoinKeys(allowed));
        good = false;
      }
    }
    for (const std::string& key : required) {
      if (!seen.contains(key) && !suggested.contains(key)) {
        Error(LocationOf(map), key,
              "missing in " + what + " (required keys: " + JoinKeys(required) + ")");
        good = false;
      }
    }
    return good;
  }

  std::optional<std::string> Text(const YAML::Node& node, const std::string& key) {
    if (!node.IsScalar()) {
      Error(LocationOf(node), key, "expected text, got " + Describe(node));
      return std::nullopt;
    }
    return node.Scalar();
  }

  std::optional<double> Double(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar()) {
      try {
        return node.as<double>();
      } catch (const YAML::Exception&) {
      }
    }
    Error(LocationOf(node), key, "expected a number, got " + Describe(node));
    return std::nullopt;
  }

  // A tolerance bound: a number >= 0 (a negative or NaN bound would pass nothing, or
  // everything, without saying so).
  std::optional<double> Bound(const YAML::Node& node, const std::string& key) {
    const auto value = Double(node, key);
    if (!value) return std::nullopt;
    if (std::isnan(*value) || *value < 0) {
      Error(LocationOf(node), key,
            "a tolerance is a number >= 0, got " + Describe(node) +
                (std::isnan(*value) ? " (NaN compares false with everything)"
                                    : " (use its magnitude: " + node.Scalar().substr(1) + ")"));
      return std::nullopt;
    }
    return value;
  }

  std::optional<bool> Bool(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar() && (node.Scalar() == "true" || node.Scalar() == "false"))
      return node.Scalar() == "true";
    Error(LocationOf(node), key, "expected true or false, got " + Describe(node));
    return std::nullopt;
  }

  std::optional<int64_t> Int(const YAML::Node& node, const std::string& key, int64_t min) {
    if (node.IsScalar()) {
      try {
        const auto value = node.as<int64_t>();
        if (value >= min) return value;
      } catch (const YAML::Exception&) {
      }
    }
    Error(LocationOf(node), key,
          "expected a whole number >= " + std::to_string(min) + ", got " + Describe(node));
    return std::nullopt;
  }

  std::optional<TF_DataType> Dtype(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar()) {
      if (auto dtype = DtypeFromName(node.Scalar())) return dtype;
    }
    const std::string word = node.IsScalar() ? node.Scalar() : "";
    Error(LocationOf(node), key,
          "unknown dtype " + Describe(node) + Suggestion(word, ScenarioDtypeNames()) +
              "; known dtypes: " + JoinKeys(ScenarioDtypeNames()));
    return std::nullopt;
  }

  // A number or a special value name (nan, inf, max, denorm_min, ...).
  std::optional<Number> NumberOf(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar()) {
      const std::string& text = node.Scalar();
      const auto& names = SpecialValueNames();
      if (std::find(names.begin(), names.end(), text) != names.end()) return Number{text};
      try {
        return Number{node.as<double>()};
      } catch (const YAML::Exception&) {
      }
      Error(LocationOf(node), key,
            "expected a number or one of " + JoinKeys(names) + ", got " + Describe(node) +
                Suggestion(text, names));
      return std::nullopt;
    }
    Error(LocationOf(node), key, "expected a number, got " + Describe(node));
    return std::nullopt;
  }

  std::vector<Number> Numbers(const YAML::Node& node, const std::string& key) {
    std::vector<Number> numbers;
    if (!node.IsSequence()) {
      Error(LocationOf(node), key, "expected a list of numbers, got " + Describe(node));
      return numbers;
    }
    for (const auto& item : node) {
      if (auto number = NumberOf(item, key)) numbers.push_back(*number);
    }
    return numbers;
  }

  std::optional<core::Shape> ShapeOf(const YAML::Node& node, const std::string& key) {
    if (!node.IsSequence()) {
      Error(LocationOf(node), key,
            "expected a shape (a list of dimensions, [] for a scalar), got " + Describe(node));
      return std::nullopt;
    }
    core::Shape shape;
    int64_t elements = 1;
    for (const auto& dim : node) {
      auto value = Int(dim, key, 0);
      if (!value) return std::nullopt;
      shape.push_back(*value);
      if (elements != 0 && __builtin_mul_overflow(elements, *value, &elements)) {
        Error(LocationOf(node), key,
              "the element count of this shape overflows a 64-bit integer (at dimension " +
                  std::to_string(shape.size() - 1) +
                  "); no device holds such a tensor: use a shape with fewer elements");
        return std::nullopt;
      }
    }
    return shape;
  }

  // attrs: scalars become bool/int/float/string; {type: int32} a type; lists of ints or strings.
  std::optional<core::AttrValue> Attr(const YAML::Node& node, const std::string& key) {
    if (node.IsMap()) {
      if (!CheckKeys(node, "attr '" + key + "'", {"type"}, {"type"})) return std::nullopt;
      if (auto dtype = Dtype(node["type"], key)) return core::AttrValue{*dtype};
      return std::nullopt;
    }
    if (node.IsSequence()) {
      core::AttrList list;
      for (const auto& item : node) {
        if (!item.IsScalar()) {
          Error(LocationOf(item), key, "list attrs hold numbers or text, got " + Describe(item));
          return std::nullopt;
        }
        int64_t i = 0;
        if (YAML::convert<int64_t>::decode(item, i)) {
          list.i.push_back(i);
        } else {
          list.s.push_back(item.Scalar());
        }
      }
      if (!list.i.empty() && !list.s.empty()) {
        Error(LocationOf(node), key, "a list attr holds either numbers or text, not both");
        return std::nullopt;
      }
      return core::AttrValue{list};
    }
    if (!node.IsScalar()) {
      Error(LocationOf(node), key, "expected a value, got " + Describe(node));
      return std::nullopt;
    }
    const std::string& text = node.Scalar();
    if (text == "true" || text == "false") return core::AttrValue{text == "true"};
    int64_t i = 0;
    if (YAML::convert<int64_t>::decode(node, i)) return core::AttrValue{i};
    double d = 0;
    if (node.Tag() != "!" && YAML::convert<double>::decode(node, d))
      return core::AttrValue{static_cast<float>(d)};
    return core::AttrValue{text};
  }

  InputSpec Input(const YAML::Node& node) {
    InputSpec input;
    input.at = LocationOf(node);
    if (!CheckKeys(node, "input", kInputKeys, {"name"})) return input;
    if (auto name = Text(node["name"], "name")) input.name = *name;
    input.name_at = LocationOf(node["name"]);
    if (node["dtype"]) input.dtype = Dtype(node["dtype"], "dtype");
    if (const auto variable = node["variable"]) {
      input.variable_at = LocationOf(variable);
      if (auto flag = Bool(variable, "variable")) input.variable = *flag;
    }
    int fills = 0;
    if (const auto random = node["random"]) {
      ++fills;
      input.fill.kind = InputFill::Kind::kRandom;
      if (CheckKeys(random, "random", kRandomKeys, {})) {
        if (random["min"]) input.fill.min = Double(random["min"], "min").value_or(0);
        if (random["max"]) input.fill.max = Double(random["max"], "max").value_or(0);
        if (random["seed_offset"])
          input.fill.seed_offset =
              static_cast<uint64_t>(Int(random["seed_offset"], "seed_offset", 0).value_or(0));
        if (input.fill.min > input.fill.max) Error(LocationOf(random), "min", "min is above max");
      }
    }
    if (const auto values = node["values"]) {
      ++fills;
      input.fill.kind = InputFill::Kind::kValues;
      input.fill.values = Numbers(values, "values");
      if (values.IsSequence() && values.size() == 0)
        Error(LocationOf(values), "values", "needs at least one value");
    }
    if (const auto range = node["range"]) {
      ++fills;
      input.fill.kind = InputFill::Kind::kRange;
      if (CheckKeys(range, "range", kRangeKeys, {})) {
        if (range["start"]) input.fill.start = Double(range["start"], "start").value_or(0);
        if (range["step"]) input.fill.step = Double(range["step"], "step").value_or(0);
      }
    }
    if (fills > 1)
      Error(input.at, "",
            "an input has one of random, values, range; this one has " + std::to_string(fills));
    return input;
  }

  Expectation Expect(const YAML::Node& node) {
    Expectation expect;
    if (node.IsScalar()) {
      if (node.Scalar() != "reference") {
        Error(LocationOf(node), "expect",
              "expected 'reference', {error: CODE} or {outputs: [...]}, got " + Describe(node) +
                  Suggestion(node.Scalar(), {"reference"}));
      }
      return expect;
    }
    if (!CheckKeys(node, "expect", kExpectKeys, {})) return expect;
    if (node["error"] && node["outputs"]) {
      Error(LocationOf(node), "expect", "expect has either error or outputs, not both");
      return expect;
    }
    if (const auto error = node["error"]) {
      expect.kind = Expectation::Kind::kError;
      const std::string name = error.IsScalar() ? error.Scalar() : "";
      const auto code = scenario::CodeFromName(name);
      if (!code || *code == scenario::kCodeOk) {
        Error(LocationOf(error), "error",
              "expected a TensorFlow error code name other than OK" +
                  Suggestion(name, scenario::CodeNames()));
      } else {
        expect.error = static_cast<TF_Code>(*code);
      }
      return expect;
    }
    const auto outputs = node["outputs"];
    if (!outputs || !outputs.IsSequence() || outputs.size() == 0) {
      Error(LocationOf(node), "outputs", "expected a non-empty list of {shape, values}");
      return expect;
    }
    expect.kind = Expectation::Kind::kValues;
    for (const auto& output : outputs) {
      if (!CheckKeys(output, "expected output", kExpectedOutputKeys, kExpectedOutputKeys)) continue;
      ExpectedOutput expected;
      expected.shape = ShapeOf(output["shape"], "shape").value_or(core::Shape{});
      expected.values = Numbers(output["values"], "values");
      if (static_cast<int64_t>(expected.values.size()) != core::NumElements(expected.shape)) {
        Error(LocationOf(output["values"]), "values",
              std::to_string(expected.values.size()) + " values for shape " +
                  core::ShapeString(expected.shape) + ", which has " +
                  std::to_string(core::NumElements(expected.shape)) + " elements");
      }
      expect.outputs.push_back(std::move(expected));
    }
    return expect;
  }

  std::optional<KernelScenario> Scenario(const YAML::Node& node, const std::string& file_tensorflow,
                                         const std::string& file_fix) {
    Reset();
    KernelScenario s;
    s.at = LocationOf(node);
    if (!CheckKeys(node, "kernel scenario", kScenarioKeys,
                   {"op", "name", "rule", "dtypes", "shapes", "inputs"})) {
      return std::nullopt;
    }
    s.op = Text(node["op"], "op").value_or("");
    s.at = LocationOf(node["op"]);
    if (!s.op.empty() && !IsOpName(s.op)) {
      Error(LocationOf(node["op"]), "op",
            "op names are TensorFlow op names, [A-Z][A-Za-z0-9_]*, got '" + s.op + "'");
    }
    s.name = Text(node["name"], "name").value_or("");
    if (!IsLowerSnakeName(s.name)) {
      Error(LocationOf(node["name"]), "name",
            "scenario names are [a-z0-9_]+, got '" + s.name + "'");
    }
    s.rule = Text(node["rule"], "rule").value_or("");
    s.tensorflow =
        node["tensorflow"] ? Text(node["tensorflow"], "tensorflow").value_or("") : file_tensorflow;
    s.fix = node["fix"] ? Text(node["fix"], "fix").value_or("") : file_fix;
    if (s.tensorflow.empty())
      Error(LocationOf(node), "tensorflow", "missing here and in the file (what TensorFlow does)");
    if (s.fix.empty())
      Error(LocationOf(node), "fix", "missing here and in the file (how to fix a failure)");
    s.type_attr_at = s.at;
    if (node["type_attr"]) {
      s.type_attr = Text(node["type_attr"], "type_attr").value_or("T");
      s.type_attr_at = LocationOf(node["type_attr"]);
    }

    const auto dtypes = node["dtypes"];
    if (!dtypes.IsSequence() || dtypes.size() == 0) {
      Error(LocationOf(dtypes), "dtypes",
            "expected a non-empty list of dtypes, got " + Describe(dtypes));
    } else {
      for (const auto& d : dtypes) {
        auto dtype = Dtype(d, "dtypes");
        if (!dtype) continue;
        if (std::find(s.dtypes.begin(), s.dtypes.end(), *dtype) != s.dtypes.end()) {
          Error(LocationOf(d), "dtypes", "dtype " + d.Scalar() + " is listed twice");
        } else {
          s.dtypes.push_back(*dtype);
          s.dtype_at.push_back(LocationOf(d));
        }
      }
    }

    const auto inputs = node["inputs"];
    s.inputs_at = LocationOf(inputs);
    if (!inputs.IsSequence()) {
      Error(LocationOf(inputs), "inputs", "expected a list of inputs, got " + Describe(inputs));
    } else {
      std::set<std::string> names;
      for (const auto& input : inputs) {
        s.inputs.push_back(Input(input));
        if (!s.inputs.back().name.empty() && !names.insert(s.inputs.back().name).second) {
          Error(LocationOf(input), "name", "input '" + s.inputs.back().name + "' is listed twice");
        }
      }
    }

    const auto shapes = node["shapes"];
    if (!shapes.IsSequence() || shapes.size() == 0) {
      Error(LocationOf(shapes), "shapes",
            "expected a non-empty list with one shape per input in each entry");
    } else {
      for (const auto& entry : shapes) {
        if (!entry.IsSequence() || entry.size() != s.inputs.size()) {
          Error(LocationOf(entry), "shapes",
                "each entry gives one shape per input (" + std::to_string(s.inputs.size()) +
                    "), got " +
                    (entry.IsSequence() ? std::to_string(entry.size()) + " shapes"
                                        : Describe(entry)));
          continue;
        }
        std::vector<core::Shape> row;
        for (const auto& shape : entry)
          row.push_back(ShapeOf(shape, "shapes").value_or(core::Shape{}));
        s.shapes.push_back(std::move(row));
      }
    }

    if (const auto outputs = node["outputs"]) {
      if (!outputs.IsSequence() || outputs.size() == 0) {
        Error(LocationOf(outputs), "outputs", "expected a non-empty list of outputs");
      } else {
        for (const auto& output : outputs) {
          if (!CheckKeys(output, "output", kOutputKeys, {"name"})) continue;
          OutputSpec spec{Text(output["name"], "name").value_or(""), std::nullopt,
                          LocationOf(output["name"])};
          if (output["dtype"]) spec.dtype = Dtype(output["dtype"], "dtype");
          s.outputs.push_back(std::move(spec));
        }
      }
    } else {
      s.outputs.push_back(OutputSpec{"output", std::nullopt, {}});
    }

    if (const auto attrs = node["attrs"]) {
      if (!attrs.IsMap()) {
        Error(LocationOf(attrs), "attrs",
              "expected a mapping of attr names to values, got " + Describe(attrs));
      } else {
        for (const auto& pair : attrs) {
          const std::string name = pair.first.Scalar();
          if (name == s.type_attr) {
            Error(LocationOf(pair.first), name,
                  "set by the dtype matrix (type_attr); remove it from attrs");
            continue;
          }
          s.attr_at[name] = LocationOf(pair.first);
          if (auto value = Attr(pair.second, name)) s.attrs[name] = std::move(*value);
        }
      }
    }

    if (const auto tolerance = node["tolerance"]) {
      if (!tolerance.IsMap()) {
        Error(LocationOf(tolerance), "tolerance",
              "expected a mapping of dtype to {rtol, atol, ulp}");
      } else {
        for (const auto& pair : tolerance) {
          auto dtype = Dtype(pair.first, "tolerance");
          if (!dtype || !CheckKeys(pair.second, "tolerance", kToleranceKeys, {})) continue;
          Tolerance t;
          if (pair.second["rtol"]) t.rtol = Bound(pair.second["rtol"], "rtol").value_or(0);
          if (pair.second["atol"]) t.atol = Bound(pair.second["atol"], "atol").value_or(0);
          if (pair.second["ulp"])
            t.ulp = static_cast<uint64_t>(Int(pair.second["ulp"], "ulp", 0).value_or(0));
          if (!IsFloating(*dtype) && !IsComplex(*dtype) && !t.exact()) {
            Error(LocationOf(pair.first), "tolerance",
                  DtypeName(*dtype) + " is compared exactly; tolerances are for floats");
          }
          s.tolerances[*dtype] = t;
        }
      }
    }

    if (node["expect"]) s.expect = Expect(node["expect"]);
    CheckExpectation(node, s);
    CheckSpecialValues(s);
    // Against the op's definition only once the scenario itself reads well, so one mistake
    // is not reported twice.
    if (ok_ && !ConformToOpDefinition(s, errors_, registry_, plugin_ops_)) ok_ = false;
    if (!ok_) return std::nullopt;
    return s;
  }

 private:
  void CheckExpectation(const YAML::Node& node, const KernelScenario& s) {
    if (s.expect.kind != Expectation::Kind::kValues) return;
    if (s.shapes.size() != 1) {
      Error(LocationOf(node["shapes"]), "shapes",
            "literal expected values fit one shape entry; this scenario has " +
                std::to_string(s.shapes.size()));
    }
    if (s.expect.outputs.size() != s.outputs.size()) {
      Error(LocationOf(node["expect"]), "outputs",
            std::to_string(s.expect.outputs.size()) + " expected outputs for " +
                std::to_string(s.outputs.size()) + " outputs of the scenario");
    }
  }

  // A named value must exist for every dtype it meets (no NaN for int32).
  void CheckSpecialValues(const KernelScenario& s) {
    for (const InputSpec& input : s.inputs) {
      for (const Number& n : input.fill.values) {
        if (!std::holds_alternative<std::string>(n)) continue;
        for (TF_DataType matrix_dtype : s.dtypes) {
          const TF_DataType dtype = input.dtype.value_or(matrix_dtype);
          if (!SpecialValue(dtype, std::get<std::string>(n))) {
            Error(input.at, "values",
                  "'" + std::get<std::string>(n) + "' does not exist for " + DtypeName(dtype));
            break;
          }
        }
      }
    }
  }

  ErrorList& errors_;
  const ops::OpRegistry* registry_;
  PluginOps* plugin_ops_;
  bool ok_ = true;
};

YAML::Node Load(std::string_view text, ErrorList& errors) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    errors.Add({e.mark.line + 1, e.mark.column + 1}, "", "invalid YAML: " + e.msg);
  }
  return YAML::Node();
}

}  // namespace

bool IsKernelScenarioText(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return root.IsMap() && root["kernels"];
  } catch (const YAML::Exception&) {
    return false;
  }
}

KernelScenarioFile ParseKernelScenarioText(std::string_view text, const std::string& label,
                                           ErrorList& errors, const ops::OpRegistry* registry,
                                           PluginOps* plugin_ops) {
  KernelScenarioFile file{label, {}};
  const YAML::Node root = Load(text, errors);
  if (!errors.empty()) return file;
  Parser parser(errors, registry, plugin_ops);
  if (!parser.CheckKeys(root, "kernel scenario file", kFileKeys, {"kernels"})) return file;
  const std::string tensorflow =
      root["tensorflow"] ? parser.Text(root["tensorflow"], "tensorflow").value_or("") : "";
  const std::string fix = root["fix"] ? parser.Text(root["fix"], "fix").value_or("") : "";
  const auto kernels = root["kernels"];
  if (!kernels.IsSequence() || kernels.size() == 0) {
    errors.Add(LocationOf(kernels), "kernels", "expected a non-empty list of kernel scenarios");
    return file;
  }
  std::map<std::string, Location> seen;
  for (const auto& node : kernels) {
    auto scenario = parser.Scenario(node, tensorflow, fix);
    if (!scenario) continue;
    scenario->file = label;
    const std::string key = scenario->op + "." + scenario->name;
    if (auto [it, inserted] = seen.emplace(key, scenario->at); !inserted) {
      errors.Add(LocationOf(node["name"]), "name",
                 "scenario '" + scenario->name + "' of " + scenario->op +
                     " is already defined at line " + std::to_string(it->second.line));
      continue;
    }
    file.scenarios.push_back(std::move(*scenario));
  }
  return file;
}

const std::vector<std::string>& KernelFileKeys() { return kFileKeys; }
const std::vector<std::string>& KernelScenarioKeys() { return kScenarioKeys; }
const std::vector<std::string>& KernelInputKeys() { return kInputKeys; }

}  // namespace conformance::kernels
