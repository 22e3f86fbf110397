// Test 2 of real TensorFlow as ground truth: the TF_* functions a profile says its TensorFlow
// core exports to plugins (specs/profiles/exports/*.txt; for `newest`, what the mock core
// exports) equal what that release's libraries export, restricted to the plugin-facing C API:
// the functions the plugin headers under specs/include declare. TensorFlow's side is every
// library `import tensorflow` puts in the process before plugins load (libtensorflow_framework,
// libtensorflow_cc, python/_pywrap_tensorflow_internal.so and the libraries it needs from its own
// folder), since a plugin's imports resolve against all of them. Each difference must be listed,
// with its reason, in export_differences.txt; a listed one that is no difference fails too.
//
//   tensorflow_exports_test --release VERSION --tensorflow DIR --profile NAME
//                           --include SPECS_INCLUDE --differences export_differences.txt
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
#include "validate/core_libraries.h"
#include "validate/profile.h"

namespace {

namespace fs = std::filesystem;
using conformance::core::testing::ReadDynamicInfo;

// The libraries of the release in the process of `import tensorflow`.
std::set<std::string> ReleaseExports(const fs::path& dir) {
  std::set<fs::path> libraries = {dir / "libtensorflow_framework.so.2",
                                  dir / "libtensorflow_cc.so.2"};
  if (const fs::path pywrap = dir / "python" / "_pywrap_tensorflow_internal.so";
      fs::exists(pywrap)) {
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

std::set<std::string> ProfileExports(const std::string& name) {
  std::set<std::string> symbols;
  if (name == "newest") {
    for (const std::string& symbol : conformance::validate::CoreExports()) {
      if (symbol.starts_with("TF_")) symbols.insert(symbol);
    }
    return symbols;
  }
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

int Run(const std::map<std::string, std::string>& args) {
  const std::string release = args.at("--release");
  const std::string profile = args.at("--profile");
  if (args.at("--tensorflow").empty()) {
    return tensorflow_tests::SkipOrFail("TensorFlow " + release + " is not configured");
  }
  const std::set<std::string> declared =
      conformance::core::testing::ExportedFunctionsDeclaredIn(args.at("--include"));
  std::set<std::string> theirs;
  for (const std::string& symbol : ReleaseExports(args.at("--tensorflow"))) {
    if (declared.contains(symbol)) theirs.insert(symbol);
  }
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
