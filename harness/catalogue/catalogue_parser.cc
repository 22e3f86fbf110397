#include "catalogue/catalogue_parser.h"

#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

namespace conformance {
namespace {

const std::set<std::string, std::less<>> kKeys = {"id",         "each", "origin",     "rule",
                                                  "tensorflow", "fix",  "consequence"};
const std::set<std::string, std::less<>> kRequiredKeys = {"id", "origin", "rule", "tensorflow",
                                                          "fix"};

std::string Where(std::string_view file, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return std::string(file) + ":" + std::to_string(mark.line + 1) + ":" +
         std::to_string(mark.column + 1);
}

std::string ReplaceAll(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string Scalar(std::string_view file, const YAML::Node& entry, const char* key) {
  const YAML::Node value = entry[key];
  if (!value.IsScalar()) {
    throw CatalogueError(Where(file, value) + ": key '" + key + "' must be a string");
  }
  return value.as<std::string>();
}

void CheckKeys(std::string_view file, const YAML::Node& entry) {
  for (const auto& item : entry) {
    const std::string key = item.first.as<std::string>();
    if (!kKeys.contains(key)) {
      throw CatalogueError(Where(file, item.first) + ": unknown key '" + key + "'");
    }
  }
  for (const auto& key : kRequiredKeys) {
    if (!entry[key]) throw CatalogueError(Where(file, entry) + ": missing key '" + key + "'");
  }
}

constexpr ConsequenceKind kConsequenceKinds[] = {
    ConsequenceKind::kNone,    ConsequenceKind::kWrongData, ConsequenceKind::kCrash,
    ConsequenceKind::kHang,    ConsequenceKind::kLeak,      ConsequenceKind::kIndistinctDevices,
    ConsequenceKind::kUnusable};

std::string KindList() {
  std::string list;
  for (ConsequenceKind kind : kConsequenceKinds) {
    list += (list.empty() ? "'" : ", '") + std::string(ToString(kind)) + "'";
  }
  return list;
}

// `consequence` is "<kind>: <what the user hits>"; required for stricter checks, and
// meaningless for TensorFlow's own (TensorFlow itself is the consequence).
void ParseConsequence(std::string_view file, const YAML::Node& entry, CheckEntry& base) {
  const bool present = static_cast<bool>(entry["consequence"]);
  if (base.origin == Origin::kTensorFlow) {
    if (present) {
      throw CatalogueError(Where(file, entry["consequence"]) +
                           ": key 'consequence' is for stricter checks only");
    }
    return;
  }
  if (!present) {
    throw CatalogueError(Where(file, entry) +
                         ": missing key 'consequence' (stricter checks name what a "
                         "TensorFlow user would hit, or 'none: ...' when they only warn)");
  }
  const std::string text = Scalar(file, entry, "consequence");
  const std::size_t colon = text.find(": ");
  const std::string kind = text.substr(0, colon);
  for (ConsequenceKind candidate : kConsequenceKinds) {
    if (colon != std::string::npos && kind == ToString(candidate)) {
      base.consequence_kind = candidate;
      base.consequence = text;
      return;
    }
  }
  throw CatalogueError(Where(file, entry["consequence"]) + ": consequence must start with one of " +
                       KindList() + " and ': ', not '" + kind + "'");
}

}  // namespace

std::string_view ToString(ConsequenceKind kind) {
  switch (kind) {
    case ConsequenceKind::kNone: return "none";
    case ConsequenceKind::kWrongData: return "wrong data";
    case ConsequenceKind::kCrash: return "crash";
    case ConsequenceKind::kHang: return "hang";
    case ConsequenceKind::kLeak: return "leak";
    case ConsequenceKind::kIndistinctDevices: return "indistinct devices";
    case ConsequenceKind::kUnusable: return "unusable";
  }
  return "none";
}

std::vector<CheckEntry> ParseCatalogue(std::string_view file, std::string_view yaml_text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& error) {
    throw CatalogueError(std::string(file) + ":" + std::to_string(error.mark.line + 1) + ":" +
                         std::to_string(error.mark.column + 1) + ": " + error.msg);
  }
  if (!root.IsSequence()) throw CatalogueError(std::string(file) + ": expected a list of checks");

  std::vector<CheckEntry> entries;
  for (const YAML::Node& entry : root) {
    if (!entry.IsMap()) throw CatalogueError(Where(file, entry) + ": expected a mapping");
    CheckKeys(file, entry);
    CheckEntry base;
    base.id = Scalar(file, entry, "id");
    base.rule = Scalar(file, entry, "rule");
    base.tensorflow = Scalar(file, entry, "tensorflow");
    base.fix = Scalar(file, entry, "fix");
    const std::string origin = Scalar(file, entry, "origin");
    const auto parsed_origin = OriginFromString(origin);
    if (!parsed_origin) {
      throw CatalogueError(Where(file, entry["origin"]) +
                           ": origin must be 'tensorflow' or 'stricter', not '" + origin + "'");
    }
    base.origin = *parsed_origin;
    ParseConsequence(file, entry, base);

    std::vector<std::string> values;
    if (entry["each"]) {
      if (!entry["each"].IsSequence())
        throw CatalogueError(Where(file, entry["each"]) + ": 'each' must be a list");
      for (const auto& value : entry["each"]) values.push_back(value.as<std::string>());
    } else if (base.id.find("{each}") != std::string::npos) {
      throw CatalogueError(Where(file, entry) +
                           ": id uses {each} but the entry has no 'each' list");
    }
    if (values.empty()) values.push_back("");

    for (const std::string& value : values) {
      CheckEntry expanded = base;
      for (std::string* text : {&expanded.id, &expanded.rule, &expanded.tensorflow, &expanded.fix,
                                &expanded.consequence}) {
        *text = ReplaceAll(*text, "{each}", value);
      }
      expanded.tier = expanded.id.substr(0, expanded.id.find('.'));
      entries.push_back(std::move(expanded));
    }
  }
  return entries;
}

}  // namespace conformance
