#include "ops/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <yaml-cpp/yaml.h>

#include "core/datatype.h"
#include "run/did_you_mean.h"

namespace conformance::ops_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::ops_data

namespace conformance::ops {
namespace {

const std::vector<std::string> kKeys = {"op",      "summary", "inputs",
                                        "outputs", "attrs",   "broadcasting"};

std::string Where(std::string_view file, const YAML::Mark& mark, int extra_columns = 0) {
  return std::string(file) + ":" + std::to_string(mark.line + 1) + ":" +
         std::to_string(mark.column + 1 + extra_columns);
}

[[noreturn]] void Fail(std::string_view file, const YAML::Node& node, const std::string& message) {
  throw OpCatalogueError(Where(file, node.Mark()) + ": " + message);
}

std::vector<std::string> SpecList(std::string_view file, const YAML::Node& entry, const char* key) {
  const YAML::Node list = entry[key];
  if (!list) return {};
  if (!list.IsSequence())
    Fail(file, list, std::string("'") + key + "' must be a list of spec strings");
  std::vector<std::string> specs;
  for (const YAML::Node& item : list) {
    if (!item.IsScalar()) Fail(file, item, std::string("'") + key + "' must hold spec strings");
    specs.push_back(item.as<std::string>());
  }
  return specs;
}

void CheckKeys(std::string_view file, const YAML::Node& entry) {
  for (const auto& item : entry) {
    const std::string key = item.first.as<std::string>();
    if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) continue;
    std::string message = "unknown key '" + key + "'";
    if (auto guess = ClosestMatch(key, kKeys)) message += " (did you mean '" + *guess + "'?)";
    Fail(file, item.first, message);
  }
  for (const char* key : {"op", "summary", "outputs"}) {
    if (!entry[key]) Fail(file, entry, std::string("missing key '") + key + "'");
  }
}

// The spec node a SpecError came from, so the error points into the file at its column.
[[noreturn]] void FailSpec(std::string_view file, std::string_view text, const YAML::Node& entry,
                           const SpecError& error) {
  for (const char* key : {"attrs", "inputs", "outputs"}) {
    for (const YAML::Node& item : entry[key] ? entry[key] : YAML::Node()) {
      if (item.as<std::string>() != error.spec) continue;
      const YAML::Mark mark = item.Mark();
      const auto at = static_cast<std::size_t>(mark.pos);
      const bool quoted = at < text.size() && (text[at] == '"' || text[at] == '\'');
      throw OpCatalogueError(Where(file, mark, (quoted ? 1 : 0) + error.column - 1) + ": " +
                             ToString(error));
    }
  }
  Fail(file, entry["op"], ToString(error));  // the op name itself
}

OpDef ParseEntry(std::string_view file, std::string_view text, const YAML::Node& entry) {
  if (!entry.IsMap()) Fail(file, entry, "expected a mapping with 'op', 'summary', 'inputs', ...");
  CheckKeys(file, entry);
  OpBuild build = BuildOpDef(entry["op"].as<std::string>(), SpecList(file, entry, "attrs"),
                             SpecList(file, entry, "inputs"), SpecList(file, entry, "outputs"));
  if (!build.ok()) FailSpec(file, text, entry, build.errors.front());
  build.op.summary = entry["summary"].as<std::string>();
  if (const YAML::Node flag = entry["broadcasting"]) {
    try {
      build.op.broadcasting = flag.as<bool>();
    } catch (const YAML::Exception&) {
      Fail(file, flag, "'broadcasting' must be true or false");
    }
  }
  return build.op;
}

std::vector<OpDef> LoadBuiltIns() {
  std::vector<OpDef> ops;
  std::set<std::string> names;
  for (const auto& [path, text] : ops_data::EmbeddedFiles()) {
    for (auto& op : ParseOpCatalogue(path, text)) {
      if (!names.insert(op.name).second) {
        throw OpCatalogueError(std::string(path) + ": op '" + op.name + "' is defined twice");
      }
      ops.push_back(std::move(op));
    }
  }
  std::sort(ops.begin(), ops.end(), [](const OpDef& a, const OpDef& b) { return a.name < b.name; });
  return ops;
}

}  // namespace

std::vector<OpDef> ParseOpCatalogue(std::string_view file, std::string_view yaml_text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& error) {
    throw OpCatalogueError(Where(file, error.mark) + ": " + error.msg);
  }
  if (!root.IsSequence()) throw OpCatalogueError(std::string(file) + ": expected a list of ops");
  std::vector<OpDef> ops;
  for (const YAML::Node& entry : root) ops.push_back(ParseEntry(file, yaml_text, entry));
  return ops;
}

const std::vector<OpDef>& BuiltInOps() {
  static const std::vector<OpDef> ops = [] {
    try {
      return LoadBuiltIns();
    } catch (const OpCatalogueError& error) {
      std::fprintf(stderr, "internal error: the built-in op catalogue does not load: %s\n",
                   error.what());
      std::abort();
    }
  }();
  return ops;
}

const OpDef* FindOp(std::string_view name) {
  const auto& ops = BuiltInOps();
  auto it = std::lower_bound(ops.begin(), ops.end(), name,
                             [](const OpDef& op, std::string_view key) { return op.name < key; });
  return it != ops.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::string> BuiltInOpNames() {
  std::vector<std::string> names;
  for (const OpDef& op : BuiltInOps()) names.push_back(op.name);
  return names;
}

std::vector<TF_DataType> AllowedTypes(const OpDef& op, std::string_view attr) {
  const AttrDef* def = op.FindAttr(attr);
  if (def == nullptr || def->element_type() != "type") return {};
  if (!def->allowed_types.empty()) return def->allowed_types;
  std::vector<TF_DataType> every;
  for (int value = TF_FLOAT; value <= TF_UINT2; ++value) {
    if (core::IsKernelConstraintType(static_cast<TF_DataType>(value)))
      every.push_back(static_cast<TF_DataType>(value));
  }
  return every;
}

std::string OutputOnlyCellAttr(const OpDef& op) {
  if (op.outputs.empty() || op.outputs.front().type_attr.empty()) return "";
  const std::string& attr = op.outputs.front().type_attr;
  for (const ArgDef& input : op.inputs) {
    if (input.type_attr.empty()) continue;
    if (input.type_attr == attr) return "";  // it types an input too: the usual cell attr
    // An index dtype with a default: integers only (Complex's T, a float, names its cells).
    const AttrDef* typing = op.FindAttr(input.type_attr);
    if (typing == nullptr || !typing->default_text || typing->allowed_types.empty()) return "";
    for (TF_DataType dtype : typing->allowed_types) {
      if (dtype != TF_INT8 && dtype != TF_INT16 && dtype != TF_INT32 && dtype != TF_INT64 &&
          dtype != TF_UINT8 && dtype != TF_UINT16 && dtype != TF_UINT32 && dtype != TF_UINT64)
        return "";
    }
  }
  return attr;
}

}  // namespace conformance::ops
