// Test 2 of real TensorFlow as ground truth: the TF_* functions a profile says its TensorFlow
// core exports to plugins (specs/profiles/exports/*.txt; for `newest`, what the mock core
// exports minus what the newest release removed) equal what that release's libraries export to
// a plugin, restricted to the plugin-facing C API: the functions the plugin headers under
// specs/include declare. TensorFlow's side is what a plugin linking libtensorflow_framework.so.2
// can bind to after `import tensorflow` (ReleaseExports). Each difference must be listed,
// with its reason, in export_differences.txt; a listed one that is no difference fails too.
//
//   tensorflow_exports_test --release VERSION --tensorflow DIR --profile NAME
//                           --include SPECS_INCLUDE --differences export_differences.txt
//   tensorflow_exports_test --tensorflow DIR --include SPECS_INCLUDE --print-release-exports 1
// The second form prints the release's plugin-facing TF_* functions, one a line: how a profile's
// export list is generated from a wheel (specs/profiles/README.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "elf_dynamic.h"
#include "loader/import_audit.h"
#include "skip.h"
#include "validate/profile.h"

namespace {

namespace fs = std::filesystem;
using conformance::core::testing::ReadDynamicInfo;

// The libraries of the release whose functions a plugin linking libtensorflow_framework.so.2
// can import. Where `import tensorflow` loads its libraries with RTLD_GLOBAL (the wheel ships
// python/pywrap_dlopen_global_flags.py: 2.21.0), that is every library in the process. Where it
// does not (2.15.1: dlsym(RTLD_DEFAULT) finds none of their TF_* functions after the import), a
// plugin sees only what it links: libtensorflow_framework.so.2 (2.15.1 refuses the reference
// plugin for TF_GetOutputPropertiesListSize, defined in libtensorflow_cc.so.2 only).
std::set<std::string> ReleaseExports(const fs::path& dir) {
  std::set<fs::path> libraries = {dir / "libtensorflow_framework.so.2"};
  const bool global = fs::exists(dir / "python" / "pywrap_dlopen_global_flags.py");
  if (global) libraries.insert(dir / "libtensorflow_cc.so.2");
  if (const fs::path pywrap = dir / "python" / "_pywrap_tensorflow_internal.so";
      global && fs::exists(pywrap)) {
    libraries.insert(pywrap);
    for (const std::string& needed : ReadDynamicInfo(pywrap).needed) {
      if (fs::exists(pywrap.parent_path() / needed))
        libraries.insert(pywrap.parent_path() / needed);
    }
  }
  std::set<std::string> symbols;
  for (const fs::path& library : libraries) {
    for (const std::string& symbol : ReadDynamicInfo(library).defined) {
      if (symbol.starts_with("TF_")) symbols.insert(symbol);
    }
  }
  return symbols;
}

// What the profile's import audit lets a plugin import (for `newest`, the mock core's exports
// minus the profile's removals: tests/generations/profile_exports_test.cc keeps that true).
std::set<std::string> ProfileExports(const std::string& name) {
  std::set<std::string> symbols;
  const conformance::validate::Profile* profile = conformance::validate::FindProfile(name);
  if (profile == nullptr) throw std::runtime_error("unknown profile " + name);
  for (const std::string& symbol : profile->exports) {
    if (symbol.starts_with("TF_")) symbols.insert(symbol);
  }
  return symbols;
}

// export_differences.txt, one difference a line: "RELEASE PROFILE +SYMBOL REASON" (the release
// exports it, the profile does not) or "RELEASE PROFILE -SYMBOL REASON" (the other way round);
// '#' starts a comment line. A line without a reason is an error.
std::map<std::string, std::string> ListedDifferences(const std::string& path,
                                                     const std::string& release,
                                                     const std::string& profile) {
  std::map<std::string, std::string> listed;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("#")) continue;
    std::istringstream words(line);
    std::string line_release, line_profile, difference, reason;
    if (!(words >> line_release >> line_profile >> difference)) continue;
    if (!std::getline(words >> std::ws, reason) || reason.empty()) {
      throw std::runtime_error(path + ": no reason given in: " + line);
    }
    if (line_release == release && line_profile == profile) listed[difference] = reason;
  }
  return listed;
}

// The plugin-facing TF_* functions the release in `dir` exports.
std::set<std::string> PluginFacingExports(const std::string& dir, const std::string& include) {
  const std::set<std::string> declared =
      conformance::core::testing::ExportedFunctionsDeclaredIn(include);
  std::set<std::string> theirs;
  for (const std::string& symbol : ReleaseExports(dir)) {
    if (declared.contains(symbol)) theirs.insert(symbol);
  }
  return theirs;
}

int Run(const std::map<std::string, std::string>& args) {
  if (args.contains("--print-release-exports")) {
    for (const std::string& symbol :
         PluginFacingExports(args.at("--tensorflow"), args.at("--include")))
      std::cout << symbol << '\n';
    return 0;
  }
  const std::string release = args.at("--release");
  const std::string profile = args.at("--profile");
  if (args.at("--tensorflow").empty()) {
    return tensorflow_tests::SkipOrFail("TensorFlow " + release + " is not configured");
  }
  const std::set<std::string> theirs =
      PluginFacingExports(args.at("--tensorflow"), args.at("--include"));
  const std::set<std::string> ours = ProfileExports(profile);
  std::set<std::string> differences;
  for (const std::string& symbol : theirs) {
    if (!ours.contains(symbol)) differences.insert("+" + symbol);
  }
  for (const std::string& symbol : ours) {
    if (!theirs.contains(symbol)) differences.insert("-" + symbol);
  }
  const auto listed = ListedDifferences(args.at("--differences"), release, profile);
  int failures = 0;
  for (const std::string& difference : differences) {
    if (listed.contains(difference)) continue;
    ++failures;
    std::cout << "UNLISTED " << release << ' ' << profile << ' ' << difference << "  ("
              << (difference[0] == '+'
                      ? "TensorFlow " + release + " exports it, the profile does not"
                      : "the profile exports it, TensorFlow " + release + " does not")
              << ")\n";
  }
  for (const auto& [difference, reason] : listed) {
    if (differences.contains(difference)) continue;
    ++failures;
    std::cout << "STALE " << release << ' ' << profile << ' ' << difference
              << " is listed but is no difference\n";
  }
  std::cout << theirs.size() << " plugin-facing TF_* functions exported by TensorFlow " << release
            << ", " << ours.size() << " by profile " << profile << ", " << differences.size()
            << " differences (" << listed.size() << " listed)\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> args = {{"--tensorflow", ""}};
  for (int i = 1; i + 1 < argc; i += 2) args[argv[i]] = argv[i + 1];
  try {
    return Run(args);
  } catch (const std::exception& error) {
    std::cerr << "tensorflow_exports_test: " << error.what() << '\n';
    return 1;
  }
}
