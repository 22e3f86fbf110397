#include "expectations.h"

#include <fstream>
#include <stdexcept>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace load_defects {
namespace {

constexpr std::string_view kCoLoad = "--co-load";

std::runtime_error TableError(const std::string& path, const std::string& where,
                              const std::string& what) {
  return std::runtime_error(path + ": " + where + ": " + what);
}

std::string RequiredString(const YAML::Node& node, const char* key, const std::string& path,
                           const std::string& where) {
  const YAML::Node value = node[key];
  if (!value || !value.IsScalar() || value.as<std::string>().empty()) {
    throw TableError(path, where, std::string("missing '") + key + "'");
  }
  return value.as<std::string>();
}

Expectation ParseEntry(const YAML::Node& node, bool passing, const std::string& path,
                       std::size_t index) {
  const std::string where =
      std::string(passing ? "passing" : "defects") + "[" + std::to_string(index) + "]";
  if (!node.IsMap()) throw TableError(path, where, "not a map");
  static const std::vector<std::string> kKnownKeys = {
      "name",    "variant", "mock",     "args",    "check",
      "outcome", "message", "contains", "tf_code", "failing_call"};
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    bool known = false;
    for (const std::string& k : kKnownKeys) known = known || k == key;
    if (!known) throw TableError(path, where, "unknown key '" + key + "'");
  }

  Expectation e;
  if (node["variant"].IsDefined() == node["mock"].IsDefined()) {
    throw TableError(path, where, "give exactly one of 'variant' and 'mock'");
  }
  if (node["mock"].IsDefined()) {
    // A mock's configuration says nothing readable about the defect: it needs a name.
    e.mock = node["mock"].as<std::string>();
    e.name = RequiredString(node, "name", path, where);
  } else {
    e.variant = RequiredString(node, "variant", path, where);
    e.name = node["name"] ? node["name"].as<std::string>() : e.variant;
  }
  if (const YAML::Node args = node["args"]) {
    if (!args.IsSequence()) throw TableError(path, where, "'args' is not a list");
    for (const auto& arg : args) e.args.push_back(arg.as<std::string>());
  }
  if (passing) {
    for (const char* key : {"check", "outcome", "message", "contains", "tf_code", "failing_call"}) {
      if (node[key])
        throw TableError(path, where, std::string("a passing run has no '") + key + "'");
    }
    e.outcome = "pass";
    return e;
  }
  e.check = RequiredString(node, "check", path, where);
  e.outcome = RequiredString(node, "outcome", path, where);
  if (e.outcome != "fail" && e.outcome != "warning" && e.outcome != "crash" &&
      e.outcome != "timeout" && e.outcome != "not_supported") {
    throw TableError(path, where, "outcome must be fail, warning, crash, timeout or not_supported");
  }
  if (node["message"]) e.message = node["message"].as<std::string>();
  if (node["contains"]) e.contains = node["contains"].as<std::string>();
  if (e.message.has_value() == e.contains.has_value()) {
    throw TableError(path, where, "give exactly one of 'message' and 'contains'");
  }
  if (node["tf_code"]) e.tf_code = node["tf_code"].as<int>();
  if (node["failing_call"]) e.failing_call = node["failing_call"].as<std::string>();
  return e;
}

}  // namespace

int Expectation::ExpectedExitCode() const {
  if (passing() || outcome == "warning") return 0;
  if (check.starts_with("load.library.")) return 3;
  return 1;
}

ExpectationTable LoadExpectations(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
  ExpectationTable table;
  for (const bool passing : {true, false}) {
    const YAML::Node list = root[passing ? "passing" : "defects"];
    if (!list || !list.IsSequence()) {
      throw TableError(path, passing ? "passing" : "defects", "missing or not a list");
    }
    auto& into = passing ? table.passing : table.defects;
    for (std::size_t i = 0; i < list.size(); ++i)
      into.push_back(ParseEntry(list[i], passing, path, i));
  }
  if (const YAML::Node uncovered = root["uncovered"]) {
    if (!uncovered.IsSequence()) throw TableError(path, "uncovered", "not a list");
    for (std::size_t i = 0; i < uncovered.size(); ++i) {
      const std::string where = "uncovered[" + std::to_string(i) + "]";
      table.uncovered.push_back({RequiredString(uncovered[i], "check", path, where),
                                 RequiredString(uncovered[i], "reason", path, where)});
    }
  }
  return table;
}

std::vector<std::string> LoadCatalogueIds(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
  if (!root.IsSequence()) throw std::runtime_error(path + ": not a list of checks");
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const std::string where = "entry " + std::to_string(i);
    const std::string id = RequiredString(root[i], "id", path, where);
    const YAML::Node each = root[i]["each"];
    if (!each) {
      ids.push_back(id);
      continue;
    }
    const std::string placeholder = "{each}";
    const std::size_t at = id.find(placeholder);
    if (!each.IsSequence() || at == std::string::npos) {
      throw TableError(path, where, "'each' needs a list and an id with {each}");
    }
    for (const auto& value : each) {
      std::string expanded = id;
      expanded.replace(at, placeholder.size(), value.as<std::string>());
      ids.push_back(expanded);
    }
  }
  return ids;
}

std::vector<std::string> BuiltVariants(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> variants;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) variants.push_back(line);
  }
  return variants;
}

std::string PluginPath(const std::string& variant) {
  return std::string(LOAD_DEFECTS_DIR) + "/" + variant + ".so";
}

std::vector<std::string> ResolvedArgs(const Expectation& expectation) {
  std::vector<std::string> args = expectation.args;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == kCoLoad) args[i + 1] = PluginPath(args[i + 1]);
  }
  return args;
}

std::vector<std::string> VariantsUsed(const Expectation& expectation) {
  std::vector<std::string> variants;
  if (!expectation.is_mock()) variants.push_back(expectation.variant);
  for (std::size_t i = 0; i + 1 < expectation.args.size(); ++i) {
    if (expectation.args[i] == kCoLoad) variants.push_back(expectation.args[i + 1]);
  }
  return variants;
}

}  // namespace load_defects
