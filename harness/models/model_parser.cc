#include "models/model_parser.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "kernels/attr_conformity.h"
#include "kernels/dtype_values.h"
#include "model/name_syntax.h"
#include "models/model_shapes.h"
#include "ops/catalogue.h"
#include "run/did_you_mean.h"
#include "scenario/schema_keys.h"

namespace conformance::models {
namespace {

using scenario::ErrorList;
using scenario::JoinKeys;
using scenario::Suggestion;

const std::vector<std::string> kFileKeys = {"models"};
const std::vector<std::string> kModelKeys = {"name",   "rule",    "tensorflow", "fix",
                                             "dtypes", "steps",   "inputs",     "variables",
                                             "nodes",  "outputs", "tolerance"};
const std::vector<std::string> kInputKeys = {"name", "dtype", "shape", "random", "values"};
const std::vector<std::string> kRandomKeys = {"min", "max", "seed_offset"};
const std::vector<std::string> kNodeKeys = {"name",    "op",    "inputs",
                                            "outputs", "attrs", "type_attr"};
const std::vector<std::string> kToleranceKeys = {"rtol", "atol", "ulp"};

Location At(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

std::string Describe(const YAML::Node& node) {
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "nothing";
  return "'" + node.Scalar() + "'";
}

class Parser {
 public:
  explicit Parser(ErrorList& errors) : errors_(errors) {}

  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }
  bool ok() const { return ok_; }
  void Reset() { ok_ = true; }

  bool CheckKeys(const YAML::Node& map, const std::string& what,
                 const std::vector<std::string>& allowed,
                 const std::vector<std::string>& required) {
    if (!map.IsMap()) {
      Error(At(map), "", what + ": expected a mapping, got " + Describe(map));
      return false;
    }
    bool good = true;
    std::set<std::string> seen, suggested;
    for (const auto& pair : map) {
      const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : "";
      if (!seen.insert(key).second) {
        Error(At(pair.first), key, "duplicate key in " + what);
        good = false;
      } else if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        if (auto match = ClosestMatch(key, allowed)) suggested.insert(*match);
        Error(At(pair.first), key,
              "unknown key in " + what + Suggestion(key, allowed) +
                  "; allowed keys: " + JoinKeys(allowed));
        good = false;
      }
    }
    for (const std::string& key : required) {
      if (!seen.contains(key) && !suggested.contains(key)) {
        Error(At(map), key, "missing in " + what + " (required keys: " + JoinKeys(required) + ")");
        good = false;
      }
    }
    return good;
  }

  std::optional<std::string> Text(const YAML::Node& node, const std::string& key) {
    if (!node.IsScalar()) {
      Error(At(node), key, "expected text, got " + Describe(node));
      return std::nullopt;
    }
    return node.Scalar();
  }

  std::optional<double> Double(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar()) {
      try {
        const double value = node.as<double>();
        if (!std::isnan(value)) return value;
      } catch (const YAML::Exception&) {
      }
    }
    Error(At(node), key, "expected a number, got " + Describe(node));
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
    Error(At(node), key,
          "expected a whole number >= " + std::to_string(min) + ", got " + Describe(node));
    return std::nullopt;
  }

  std::optional<TF_DataType> Dtype(const YAML::Node& node, const std::string& key) {
    if (node.IsScalar()) {
      if (auto dtype = kernels::DtypeFromName(node.Scalar())) return dtype;
      Error(At(node), key,
            "unknown dtype '" + node.Scalar() + "'" +
                Suggestion(node.Scalar(), kernels::ScenarioDtypeNames()));
      return std::nullopt;
    }
    Error(At(node), key, "expected a dtype name, got " + Describe(node));
    return std::nullopt;
  }

  // A tensor or node name: [A-Za-z0-9_]+, so ids and messages stay readable.
  std::optional<std::string> Name(const YAML::Node& node, const std::string& key) {
    auto text = Text(node, key);
    if (!text) return std::nullopt;
    if (!IsWordName(*text)) {
      Error(At(node), key, "'" + *text + "' is not a name ([A-Za-z0-9_]+)");
      return std::nullopt;
    }
    return text;
  }

  template <typename Fn>
  void ForEach(const YAML::Node& list, const std::string& key, Fn&& fn) {
    if (!list.IsSequence()) {
      Error(At(list), key, "expected a list, got " + Describe(list));
      return;
    }
    for (const auto& item : list) fn(item);
  }

  std::optional<core::Shape> Shape(const YAML::Node& node, const std::string& key) {
    core::Shape shape;
    bool good = node.IsSequence();
    if (good) {
      for (const auto& dim : node) {
        const auto value = Int(dim, key, 0);
        if (!value) return std::nullopt;
        shape.push_back(*value);
      }
    } else {
      Error(At(node), key, "expected a shape such as [2, 3], got " + Describe(node));
      return std::nullopt;
    }
    return shape;
  }

  // Attr values: bool, int, float, text, {type: T}, or a list of ints or of strings.
  std::optional<core::AttrValue> Attr(const YAML::Node& node, const std::string& key) {
    if (node.IsMap()) {
      if (!CheckKeys(node, "attr '" + key + "'", {"type"}, {"type"})) return std::nullopt;
      if (auto dtype = Dtype(node["type"], key)) return core::AttrValue{*dtype};
      return std::nullopt;
    }
    if (node.IsSequence()) {
      core::AttrList list;
      for (const auto& item : node) {
        int64_t i = 0;
        if (item.IsScalar() && YAML::convert<int64_t>::decode(item, i)) {
          list.i.push_back(i);
        } else if (item.IsScalar()) {
          list.s.push_back(item.Scalar());
        } else {
          Error(At(item), key, "list attrs hold numbers or text, got " + Describe(item));
          return std::nullopt;
        }
      }
      if (!list.i.empty() && !list.s.empty()) {
        Error(At(node), key, "a list attr holds either numbers or text, not both");
        return std::nullopt;
      }
      return core::AttrValue{list};
    }
    if (!node.IsScalar()) {
      Error(At(node), key, "expected a value, got " + Describe(node));
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

  // A model input or variable (`what`): both are seeded the same way.
  void ParseInput(const YAML::Node& node, const std::string& what, std::vector<ModelInput>& into) {
    if (!CheckKeys(node, what, kInputKeys, {"name", "shape"})) return;
    ModelInput input;
    input.at = At(node);
    if (auto name = Name(node["name"], "name")) input.name = *name;
    if (auto shape = Shape(node["shape"], "shape")) input.shape = *shape;
    if (node["dtype"]) input.dtype = Dtype(node["dtype"], "dtype");
    if (node["random"] && node["values"]) {
      Error(At(node["values"]), "values", "an input is filled by random or values, not both");
    } else if (const auto random = node["random"]) {
      input.fill.kind = kernels::InputFill::Kind::kRandom;
      if (CheckKeys(random, "random", kRandomKeys, {})) {
        if (random["min"]) input.fill.min = Double(random["min"], "min").value_or(0);
        if (random["max"]) input.fill.max = Double(random["max"], "max").value_or(0);
        if (random["seed_offset"]) {
          input.fill.seed_offset =
              static_cast<uint64_t>(Int(random["seed_offset"], "seed_offset", 0).value_or(0));
        }
        if (input.fill.min > input.fill.max) Error(At(random), "min", "min is above max");
      }
    } else if (const auto values = node["values"]) {
      input.fill.kind = kernels::InputFill::Kind::kValues;
      ForEach(values, "values", [&](const YAML::Node& v) {
        if (auto value = Double(v, "values")) input.fill.values.emplace_back(*value);
      });
      if (values.IsSequence() && values.size() == 0)
        Error(At(values), "values", "give at least one value");
    }
    into.push_back(std::move(input));
  }

  std::vector<std::pair<std::string, Location>> Names(const YAML::Node& list,
                                                      const std::string& key) {
    std::vector<std::pair<std::string, Location>> names;
    ForEach(list, key, [&](const YAML::Node& item) {
      if (auto name = Name(item, key)) names.emplace_back(*name, At(item));
    });
    return names;
  }

  void ParseNode(const YAML::Node& node, ModelScenario& model) {
    if (!CheckKeys(node, "model node", kNodeKeys, {"name", "op", "inputs", "outputs"})) return;
    ModelNode n;
    if (auto name = Name(node["name"], "name")) n.name = *name;
    n.at = At(node["op"]);
    if (auto op = Text(node["op"], "op")) {
      n.op = *op;
      const ops::OpDef* def = ops::FindOp(n.op);
      if (def == nullptr) {
        std::vector<std::string> known;
        known.reserve(ops::BuiltInOps().size());
        for (const ops::OpDef& candidate : ops::BuiltInOps()) known.push_back(candidate.name);
        Error(n.at, "op",
              "'" + n.op + "' is not an op of the catalogue (specs/ops)" + Suggestion(n.op, known));
      }
    }
    n.type_attr_at = n.at;
    if (node["type_attr"]) {
      n.type_attr = Text(node["type_attr"], "type_attr").value_or("T");
      n.type_attr_at = At(node["type_attr"]);
    }
    for (auto& [name, at] : Names(node["inputs"], "inputs")) {
      n.inputs.push_back(name);
      n.input_at.push_back(at);
    }
    for (auto& [name, at] : Names(node["outputs"], "outputs")) {
      n.outputs.push_back(name);
      n.output_at.push_back(at);
    }
    if (const auto attrs = node["attrs"]) {
      if (!attrs.IsMap()) {
        Error(At(attrs), "attrs",
              "expected a mapping of attr names to values, got " + Describe(attrs));
      } else {
        for (const auto& pair : attrs) {
          const std::string name = pair.first.Scalar();
          if (name == n.type_attr) {
            Error(At(pair.first), name,
                  "set by the model's dtypes (type_attr); remove it from attrs");
          } else if (auto value = Attr(pair.second, name)) {
            n.attrs[name] = std::move(*value);
            n.attr_at[name] = At(pair.first);
          }
        }
      }
    }
    if (const ops::OpDef* def = ops::FindOp(n.op)) {
      CheckArity(*def, n, node);
      CheckTypeAttr(*def, n);
      // Every attr one of the op's, of its type, and none without a default left out, as in
      // kernel scenarios: a wrong value would otherwise reach the kernel and be blamed on it.
      if (!kernels::ConformAttrs(*def, n.attrs, n.attr_at, n.at, errors_)) ok_ = false;
    }
    model.nodes.push_back(std::move(n));
  }

  // The model's dtypes set the node's type attr: it must be one of the op's type attrs.
  void CheckTypeAttr(const ops::OpDef& def, const ModelNode& n) {
    const ops::AttrDef* attr = def.FindAttr(n.type_attr);
    if (attr != nullptr && attr->type == "type") return;
    std::vector<std::string> type_attrs;
    for (const ops::AttrDef& candidate : def.attrs)
      if (candidate.type == "type") type_attrs.push_back(candidate.name);
    Error(n.type_attr_at, "type_attr",
          n.op + " has no type attr '" + n.type_attr + "'" + Suggestion(n.type_attr, type_attrs) +
              "; its type attrs: " + (type_attrs.empty() ? "none" : JoinKeys(type_attrs)));
  }

  // Only ops whose arguments are single tensors are run by the models tier: one tensor name
  // per input and output argument of the op's definition.
  void CheckArity(const ops::OpDef& def, const ModelNode& n, const YAML::Node& node) {
    auto names = [](const std::vector<ops::ArgDef>& args) {
      std::string text;
      for (const auto& arg : args) text += (text.empty() ? "" : ", ") + arg.name;
      return text;
    };
    if (n.inputs.size() != def.inputs.size()) {
      Error(At(node["inputs"]), "inputs",
            n.op + " takes " + std::to_string(def.inputs.size()) + " inputs (" + names(def.inputs) +
                "), got " + std::to_string(n.inputs.size()));
    }
    if (n.outputs.size() != def.outputs.size()) {
      Error(At(node["outputs"]), "outputs",
            n.op + " has " + std::to_string(def.outputs.size()) + " outputs (" +
                names(def.outputs) + "), got " + std::to_string(n.outputs.size()));
    }
  }

  void ParseTolerance(const YAML::Node& node, ModelScenario& model) {
    if (!node.IsMap()) {
      Error(At(node), "tolerance", "expected a mapping of dtype to {rtol, atol, ulp}");
      return;
    }
    for (const auto& pair : node) {
      const auto dtype = Dtype(pair.first, "tolerance");
      if (!CheckKeys(pair.second, "tolerance", kToleranceKeys, {}) || !dtype) continue;
      kernels::Tolerance t;
      if (pair.second["rtol"]) t.rtol = Double(pair.second["rtol"], "rtol").value_or(0);
      if (pair.second["atol"]) t.atol = Double(pair.second["atol"], "atol").value_or(0);
      if (pair.second["ulp"])
        t.ulp = static_cast<std::uint64_t>(Int(pair.second["ulp"], "ulp", 0).value_or(0));
      if (t.rtol < 0 || t.atol < 0) Error(At(pair.second), "tolerance", "bounds are >= 0");
      model.tolerances[*dtype] = t;
    }
  }

  static std::vector<std::string> TensorNames(const std::map<std::string, Location>& tensors) {
    std::vector<std::string> names;
    names.reserve(tensors.size());
    for (const auto& [name, at] : tensors) names.push_back(name);
    return names;
  }

  // Every tensor a node reads is a model input or an earlier node's output; every name is
  // produced once; the model's outputs exist.
  void CheckGraph(ModelScenario& model, const YAML::Node& node) {
    std::map<std::string, Location> produced;
    auto produce = [&](const std::string& name, Location at) {
      auto [it, inserted] = produced.emplace(name, at);
      if (!inserted) {
        Error(at, "outputs",
              "tensor '" + name + "' is already produced at line " +
                  std::to_string(it->second.line) + " (every tensor has one producer)");
      }
    };
    for (const ModelInput& input : model.inputs) produce(input.name, input.at);
    for (const ModelInput& variable : model.variables) produce(variable.name, variable.at);
    std::set<std::string> node_names;
    for (const ModelNode& n : model.nodes) {
      if (!node_names.insert(n.name).second)
        Error(n.at, "name", "node '" + n.name + "' is defined twice in model " + model.name);
      const ops::OpDef* def = ops::FindOp(n.op);
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        // A DT_RESOURCE argument takes a variable's handle: only a variable has one.
        if (def != nullptr && i < def->inputs.size() && def->inputs[i].type == TF_RESOURCE &&
            model.FindVariable(n.inputs[i]) == nullptr) {
          std::vector<std::string> variables;
          for (const ModelInput& variable : model.variables) variables.push_back(variable.name);
          Error(n.input_at[i], "inputs",
                n.op + "'s input '" + def->inputs[i].name + "' is a resource: '" + n.inputs[i] +
                    "' is not one of the model's variables" + Suggestion(n.inputs[i], variables));
          continue;
        }
        if (produced.contains(n.inputs[i])) continue;
        Error(n.input_at[i], "inputs",
              "tensor '" + n.inputs[i] + "' is not a model input nor an output of an earlier node" +
                  Suggestion(n.inputs[i], TensorNames(produced)));
      }
      for (std::size_t o = 0; o < n.outputs.size(); ++o) produce(n.outputs[o], n.output_at[o]);
    }
    if (const auto outputs = node["outputs"]; outputs && outputs.IsSequence()) {
      for (const auto& item : outputs) {
        const std::string name = item.IsScalar() ? item.Scalar() : "";
        if (produced.contains(name)) continue;
        Error(At(item), "outputs",
              "tensor '" + name + "' is not produced by the model" +
                  Suggestion(name, TensorNames(produced)));
      }
    }
  }

  std::optional<ModelScenario> ParseModel(const YAML::Node& node, const std::string& label) {
    Reset();
    // Unknown and missing keys are reported; the rest is still parsed, so one pass shows every
    // problem.
    if (!node.IsMap() ||
        (!CheckKeys(node, "model", kModelKeys, {"name", "dtypes", "inputs", "nodes", "outputs"}) &&
         !node["name"])) {
      return std::nullopt;
    }
    ModelScenario model;
    model.file = label;
    model.at = At(node["name"]);
    if (auto name = node["name"] ? Text(node["name"], "name") : std::nullopt) {
      if (!IsLowerSnakeName(*name))
        Error(model.at, "name", "'" + *name + "' is not a model name ([a-z0-9_]+)");
      model.name = *name;
    }
    for (const char* key : {"rule", "tensorflow", "fix"}) {
      if (!node[key]) continue;
      const std::string text = Text(node[key], key).value_or("");
      (std::string(key) == "rule"         ? model.rule
       : std::string(key) == "tensorflow" ? model.tensorflow
                                          : model.fix) = text;
    }
    if (node["dtypes"]) {
      ForEach(node["dtypes"], "dtypes", [&](const YAML::Node& item) {
        if (auto dtype = Dtype(item, "dtypes")) model.dtypes.push_back(*dtype);
      });
    }
    if (node["dtypes"].IsSequence() && model.dtypes.empty() && ok())
      Error(At(node["dtypes"]), "dtypes", "give at least one dtype");
    if (node["steps"]) model.steps = static_cast<int>(Int(node["steps"], "steps", 1).value_or(1));
    if (node["inputs"]) {
      ForEach(node["inputs"], "inputs",
              [&](const YAML::Node& item) { ParseInput(item, "model input", model.inputs); });
    }
    if (node["variables"]) {
      ForEach(node["variables"], "variables",
              [&](const YAML::Node& item) { ParseInput(item, "model variable", model.variables); });
    }
    if (node["nodes"])
      ForEach(node["nodes"], "nodes", [&](const YAML::Node& item) { ParseNode(item, model); });
    // A model without nodes or outputs compares nothing: every check of it would pass.
    if (node["nodes"].IsSequence() && node["nodes"].size() == 0)
      Error(At(node["nodes"]), "nodes",
            "give at least one node: a model without nodes runs no kernel");
    if (node["outputs"]) {
      for (auto& [name, at] : Names(node["outputs"], "outputs")) model.outputs.push_back(name);
      if (node["outputs"].IsSequence() && node["outputs"].size() == 0)
        Error(At(node["outputs"]), "outputs",
              "give at least one output: a model without outputs compares nothing");
    }
    if (node["tolerance"]) ParseTolerance(node["tolerance"], model);
    CheckGraph(model, node);  // also after other problems: one pass shows them all
    // Shapes only once the graph is sound: they follow its tensors.
    if (ok() && !CheckModelShapes(model, errors_)) ok_ = false;
    if (!ok()) return std::nullopt;
    return model;
  }

 private:
  ErrorList& errors_;
  bool ok_ = true;
};

}  // namespace

bool IsModelScenarioText(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return root.IsMap() && root["models"] && !root["scenarios"] && !root["kernels"];
  } catch (const YAML::Exception&) {
    return false;  // the runtime scenario loader reports the YAML problem
  }
}

std::vector<ModelScenario> ParseModelScenarioText(std::string_view text, const std::string& label,
                                                  ErrorList& errors) {
  std::vector<ModelScenario> models;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    errors.Add({e.mark.line + 1, e.mark.column + 1}, "", "invalid YAML: " + e.msg);
    return models;
  }
  Parser parser(errors);
  if (!parser.CheckKeys(root, "model scenario file", kFileKeys, {"models"})) return models;
  parser.ForEach(root["models"], "models", [&](const YAML::Node& node) {
    if (auto model = parser.ParseModel(node, label)) models.push_back(std::move(*model));
  });
  return models;
}

const std::vector<std::string>& ModelFileKeys() { return kFileKeys; }
const std::vector<std::string>& ModelKeys() { return kModelKeys; }
const std::vector<std::string>& ModelInputKeys() { return kInputKeys; }
const std::vector<std::string>& ModelNodeKeys() { return kNodeKeys; }

}  // namespace conformance::models
