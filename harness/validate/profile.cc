#include "validate/profile.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sstream>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "validate/core_libraries.h"

namespace conformance::validate_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance::validate {
namespace {

std::string_view EmbeddedFile(std::string_view path) {
  for (const auto& [name, text] : validate_data::EmbeddedFiles()) {
    if (name == path) return text;
  }
  throw std::runtime_error("no embedded file " + std::string(path));
}

// One symbol a line; blank lines and '#' comments are skipped.
std::set<std::string, std::less<>> ParseExportList(std::string_view path) {
  std::set<std::string, std::less<>> symbols;
  std::istringstream lines{std::string(EmbeddedFile(path))};
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty()) continue;
    if (line.find_first_of(" \t") != std::string::npos || !symbols.insert(line).second)
      throw std::runtime_error(std::string(path) + ": bad or repeated symbol '" + line + "'");
  }
  return symbols;
}

Profile ParseProfile(std::string_view path, std::string_view text) {
  const YAML::Node node = YAML::Load(std::string(text));
  Profile profile;
  profile.name = node["name"].as<std::string>();
  profile.description = node["description"].as<std::string>();
  profile.generation = node["generation"].as<std::string>();
  profile.headers = node["headers"].as<std::string>();
  profile.layout = &LayoutFile(node["layout"].as<std::string>());
  const std::string style = node["message_style"].as<std::string>();
  if (style != "absl" && style != "legacy")
    throw std::runtime_error(std::string(path) + ": bad message_style");
  profile.message_style = style == "absl" ? MessageStyle::kAbsl : MessageStyle::kLegacy;
  profile.platform_fns_required = node["platform_fns_required"].as<std::vector<std::string>>();
  profile.stream_executor_required =
      node["stream_executor_required"].as<std::vector<std::string>>();
  profile.calls_timer_fns = node["timer_fns"].as<std::string>() == "called";
  if (node["device_or_graph"]) {
    const std::string rule = node["device_or_graph"].as<std::string>();
    if (rule != "required" && rule != "optional")
      throw std::runtime_error(std::string(path) + ": bad device_or_graph");
    profile.device_or_graph_required = rule == "required";
  }
  if (node["device_or_graph_message"]) {
    const std::string rendering = node["device_or_graph_message"].as<std::string>();
    if (rendering != "statuses" && rendering != "dlerror")
      throw std::runtime_error(std::string(path) + ": bad device_or_graph_message");
    profile.device_or_graph_message_statuses = rendering == "statuses";
  }
  if (node["kernel_module"]) {
    const std::string rule = node["kernel_module"].as<std::string>();
    if (rule != "required" && rule != "optional")
      throw std::runtime_error(std::string(path) + ": bad kernel_module");
    profile.kernel_module_required = rule == "required";
  }
  if (node["profiler_module"]) {
    const std::string rule = node["profiler_module"].as<std::string>();
    if (rule != "refuses" && rule != "logged" && rule != "not_called")
      throw std::runtime_error(std::string(path) + ": bad profiler_module");
    profile.profiler_module_refuses = rule == "refuses";
  }
  if (node["pywrap_soname"]) profile.pywrap_soname = node["pywrap_soname"].as<bool>();
  if (node["libraries_global"]) profile.libraries_global = node["libraries_global"].as<bool>();
  if (const auto pjrt = node["pjrt_api"]; pjrt && pjrt.IsScalar()) {
    if (pjrt.as<std::string>() != "none")
      throw std::runtime_error(std::string(path) + ": bad pjrt_api");
    profile.pjrt_api.measured = true;
    profile.pjrt_api.loader = false;
  } else if (pjrt) {
    auto& rule = profile.pjrt_api;
    rule.measured = true;
    if (pjrt["framework"]) rule.framework = pjrt["framework"].as<std::string>();
    if (pjrt["struct_size"]) rule.struct_size = pjrt["struct_size"].as<std::size_t>();
    if (pjrt["major"]) rule.major = pjrt["major"].as<int>();
    if (pjrt["min_minor"]) rule.min_minor = pjrt["min_minor"].as<int>();
    if (pjrt["minor"]) rule.exact_minor = pjrt["minor"].as<int>();
  }
  profile.releases = node["releases"].as<std::string>();
  profile.exports = ParseExportList("specs/profiles/" + node["exports"].as<std::string>());
  if (node["not_exported"]) {
    profile.not_exported =
        ParseExportList("specs/profiles/" + node["not_exported"].as<std::string>());
  }
  if (node["pywrap_exports"]) {
    profile.pywrap_exports =
        ParseExportList("specs/profiles/" + node["pywrap_exports"].as<std::string>());
  }
  for (const auto& symbol : profile.pywrap_exports) {
    if (!profile.not_exported.contains(symbol))
      throw std::runtime_error(std::string(path) + ": " + symbol + " is in pywrap_exports, " +
                               "not in not_exported");
  }
  for (const auto& symbol : profile.not_exported) {
    if (profile.exports.contains(symbol))
      throw std::runtime_error(std::string(path) + ": " + symbol + " is exported and not");
  }
  profile.op_registry = node["op_registry"].as<std::string>();
  profile.kernel_values = node["kernel_values"].as<std::string>();
  return profile;
}

std::vector<Profile> LoadProfiles() {
  std::vector<Profile> profiles;
  try {
    for (const auto& [path, text] : validate_data::EmbeddedFiles()) {
      if (path.starts_with("specs/profiles/") && path.ends_with(".yaml"))
        profiles.push_back(ParseProfile(path, text));
    }
  } catch (const std::exception& error) {
    // Profiles are compiled in: a malformed one is a build defect (caught by the tests).
    std::fprintf(stderr, "plugin_conformance: internal error in specs/profiles: %s\n",
                 error.what());
    std::abort();
  }
  // Newest first: "newest" itself, then by descending name (tf2.15 > tf2.10 > tf2.7 > tf2.5
  // numerically).
  auto rank = [](const Profile& profile) {
    if (profile.name == "newest") return 1000;
    const std::string minor = profile.name.substr(profile.name.find('.') + 1);
    int value = 0;  // stays 0 for a name without a minor version
    std::from_chars(minor.data(), minor.data() + minor.size(), value);
    return value;
  };
  std::sort(profiles.begin(), profiles.end(),
            [&](const Profile& a, const Profile& b) { return rank(a) > rank(b); });
  return profiles;
}

}  // namespace

std::set<std::string, std::less<>> ReachableExports(const Profile& profile,
                                                    const std::vector<std::string>& needed) {
  std::set<std::string, std::less<>> reachable = profile.exports;
  if (std::find(needed.begin(), needed.end(), kPywrapSoname) != needed.end())
    reachable.insert(profile.pywrap_exports.begin(), profile.pywrap_exports.end());
  return reachable;
}

std::string ReleasesInWords(std::string_view releases, bool* several) {
  std::string words(releases);
  bool more = true;
  if (const auto dash = words.find('-'); dash != std::string::npos) {
    words = words.substr(0, dash) + " to " + words.substr(dash + 1);
  } else if (!words.empty() && words.back() == '+') {
    words = words.substr(0, words.size() - 1) + " and later";
  } else {
    more = false;
  }
  if (several != nullptr) *several = more;
  return words;
}

const std::vector<Profile>& AllProfiles() {
  static const std::vector<Profile> profiles = LoadProfiles();
  return profiles;
}

const Profile* FindProfile(std::string_view name) {
  for (const auto& profile : AllProfiles()) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

const std::vector<HeaderGeneration>& HeaderGenerations() {
  static const std::vector<HeaderGeneration> generations = [] {
    std::vector<HeaderGeneration> result;
    for (const auto& profile : AllProfiles()) {
      const bool known = std::any_of(result.begin(), result.end(), [&](const HeaderGeneration& g) {
        return g.layout == profile.layout;
      });
      if (!known) result.push_back({profile.generation, profile.headers, profile.layout});
    }
    return result;
  }();
  return generations;
}

}  // namespace conformance::validate
