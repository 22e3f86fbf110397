// Every legal-pattern plugin (legal_plugin.cc) comes out CONFORMANT: exit code 0, no result
// that breaks conformance, and exactly the warnings its pattern earns. The run is the one a
// vendor makes: plugin_conformance <variant>.so [args] --json (default tiers).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct Pattern {
  std::string variant;
  std::vector<std::string> args;
  std::set<std::string> warnings;
};

void PrintTo(const Pattern& p, std::ostream* out) { *out << p.variant; }

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  return first == std::string::npos ? ""
                                    : text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// Lines "<variant> <args>; <warnings>;" written by CMakeLists.txt.
std::vector<Pattern> LoadPatterns() {
  std::vector<Pattern> all;
  std::ifstream in(EXPECTATIONS_FILE);
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    const auto semicolon = line.find(';');
    if (space == std::string::npos || semicolon == std::string::npos) continue;
    Pattern p;
    p.variant = line.substr(0, space);
    p.args = SplitCommas(Trim(line.substr(space + 1, semicolon - space - 1)));
    const auto end = line.find(';', semicolon + 1);
    for (const auto& id : SplitCommas(Trim(line.substr(semicolon + 1, end - semicolon - 1))))
      p.warnings.insert(id);
    all.push_back(p);
  }
  return all;
}

std::string Shell(const std::string& text) { return "'" + text + "'"; }

class LegalPattern : public testing::TestWithParam<Pattern> {};

TEST_P(LegalPattern, IsConformantWithExactlyItsWarnings) {
  const Pattern& pattern = GetParam();
  const std::string plugin = std::string(LEGAL_PATTERNS_DIR) + "/" + pattern.variant + ".so";
  const std::string json =
      (std::filesystem::temp_directory_path() /
       ("legal_pattern_" + pattern.variant + "_" + std::to_string(getpid()) + ".json"))
          .string();
  std::string command =
      Shell(PLUGIN_CONFORMANCE) + " " + Shell(plugin) + " --seed 7 --json " + Shell(json);
  for (const auto& arg : pattern.args) command += " " + Shell(arg);
  command += " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;
  EXPECT_EQ(WEXITSTATUS(status), 0) << command;
  std::ifstream in(json);
  ASSERT_TRUE(in) << "no JSON report from: " << command;
  const nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);

  EXPECT_TRUE(report.at("conformant").get<bool>());
  std::set<std::string> warnings;
  int passed = 0;
  int runtime_passed = 0;
  for (const auto& result : report.at("results")) {
    const std::string id = result.at("id");
    const std::string outcome = result.at("outcome");
    const std::string message = result.value("message", "");
    EXPECT_TRUE(outcome != "fail" && outcome != "crash" && outcome != "timeout" &&
                outcome != "unexpected_pass")
        << pattern.variant << ": " << id << " " << outcome << ": " << message;
    if (outcome == "warning") warnings.insert(id);
    passed += outcome == "pass";
    runtime_passed += outcome == "pass" && result.value("tier", "") == "runtime";
  }
  EXPECT_EQ(warnings, pattern.warnings);
  EXPECT_GT(passed, 20) << "a legal pattern must be checked, not skipped";
  // On the default tiers every generation is driven at runtime, not only loaded.
  if (std::find(pattern.args.begin(), pattern.args.end(), "--tier") == pattern.args.end()) {
    EXPECT_GT(runtime_passed, 20) << pattern.variant << ": the runtime tier must run";
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, LegalPattern, testing::ValuesIn(LoadPatterns()),
                         [](const testing::TestParamInfo<Pattern>& info) {
                           return info.param.variant;
                         });

}  // namespace
