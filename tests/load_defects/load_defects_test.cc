// Runs plugin_conformance on every plugin of tests/load_defects and holds it to
// expectations.yaml: a defective plugin is caught by exactly the check meant for it, with the
// expected outcome, message, TF_Code and exit code; the correct plugin passes with no finding.
//
//   plugin_conformance <plugin.so> --tier load --json <tmp> --timeout 2000 [args]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "expectations.h"

extern char** environ;

namespace load_defects {

// gtest prints parameters in failure messages and --gtest_list_tests.
void PrintTo(const Expectation& e, std::ostream* os) {
  *os << e.variant;
  for (const std::string& arg : e.args) *os << ' ' << arg;
  if (!e.passing()) *os << " -> " << e.check << ' ' << e.outcome;
}

namespace {

constexpr const char* kHarness = PLUGIN_CONFORMANCE_EXE;
constexpr const char* kUnitTimeoutMs = "2000";

// Outcomes that count as a finding: anything but pass, not_supported, waived and skipped.
bool IsFinding(const std::string& outcome) {
  return outcome == "fail" || outcome == "warning" || outcome == "crash" || outcome == "timeout" ||
         outcome == "unexpected_pass";
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct HarnessRun {
  std::vector<std::string> argv;
  std::string json_path, console_path;  // kept when the test fails, for a look
  int exit_code = -1;                   // -1: did not exit normally
  std::string console;                  // stdout and stderr
  nlohmann::json report;                // null when unreadable
  std::string report_error;             // why it is unreadable

  std::string CommandLine() const {
    std::string line;
    for (const std::string& arg : argv) line += (line.empty() ? "" : " ") + arg;
    return line;
  }
};

HarnessRun RunHarness(const Expectation& e) {
  const std::string stem =
      testing::TempDir() + "load_defects_" + std::to_string(getpid()) + "_" + e.name;
  const std::string json_path = stem + ".json";
  const std::string console_path = stem + ".console.txt";
  std::filesystem::remove(json_path);

  HarnessRun run;
  run.json_path = json_path;
  run.console_path = console_path;
  run.argv = {kHarness,  PluginPath(e.variant), "--tier",      "load", "--json",
              json_path, "--timeout",           kUnitTimeoutMs};
  for (const std::string& arg : ResolvedArgs(e)) run.argv.push_back(arg);

  std::vector<char*> argv;
  for (std::string& arg : run.argv) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, console_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int spawn_error = posix_spawn(&pid, kHarness, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) {
    run.report_error = std::string("posix_spawn: ") + std::strerror(spawn_error);
    return run;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  run.console = ReadFile(console_path);
  if (WIFSIGNALED(status)) {
    run.console += "\n[harness killed by signal " + std::to_string(WTERMSIG(status)) + "]";
  }

  const std::string json_text = ReadFile(json_path);
  if (json_text.empty()) {
    run.report_error = "no JSON report at " + json_path;
    return run;
  }
  try {
    run.report = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& error) {
    run.report_error = std::string("unparsable JSON report: ") + error.what();
  }
  if (!run.report.is_null() && !(run.report.is_object() && run.report.contains("results") &&
                                 run.report["results"].is_array())) {
    run.report_error = "JSON report has no 'results' array";
    run.report = nullptr;
  }
  return run;
}

std::string Field(const nlohmann::json& result, const char* key) {
  const auto it = result.find(key);
  return it != result.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The interesting part of a run, for failure messages.
std::string Describe(const HarnessRun& run) {
  std::string text = "\n  command: " + run.CommandLine() +
                     "\n  exit code: " + std::to_string(run.exit_code) +
                     "\n  results other than pass and skipped:";
  if (!run.report.is_null()) {
    int skipped = 0;
    for (const auto& result : run.report["results"]) {
      const std::string outcome = Field(result, "outcome");
      skipped += outcome == "skipped";
      if (outcome == "pass" || outcome == "skipped") continue;
      text +=
          "\n    " + Field(result, "id") + ": " + outcome + " \"" + Field(result, "message") + "\"";
      if (result.contains("tf_code") && result["tf_code"].is_number_integer()) {
        text += " (tf_code " + std::to_string(result["tf_code"].get<int>()) + ")";
      }
    }
    text += "\n    (" + std::to_string(skipped) + " skipped)";
  } else {
    text += " (no report: " + run.report_error + ")";
  }
  constexpr std::size_t kConsoleTail = 3000;
  const std::string console = run.console.size() > kConsoleTail
                                  ? "..." + run.console.substr(run.console.size() - kConsoleTail)
                                  : run.console;
  return text + "\n  console:\n" + console;
}

void RemoveFilesUnlessFailed(const HarnessRun& run) {
  if (testing::Test::HasFailure()) return;
  std::error_code ignored;
  std::filesystem::remove(run.json_path, ignored);
  std::filesystem::remove(run.console_path, ignored);
}

std::vector<Expectation> Passing() {
  try {
    return LoadExpectations().passing;
  } catch (const std::exception&) {
    return {};  // LoadDefectsTable.Loads (coverage test) reports why
  }
}

std::vector<Expectation> Defects() {
  try {
    return LoadExpectations().defects;
  } catch (const std::exception&) {
    return {};
  }
}

std::string TestName(const testing::TestParamInfo<Expectation>& info) { return info.param.name; }

class CorrectPlugin : public testing::TestWithParam<Expectation> {};
class DefectivePlugin : public testing::TestWithParam<Expectation> {};

TEST_P(CorrectPlugin, PassesWithNoFinding) {
  const Expectation& e = GetParam();
  const HarnessRun run = RunHarness(e);
  const std::string context = Describe(run);
  ASSERT_FALSE(run.report.is_null()) << context;

  EXPECT_EQ(run.exit_code, 0) << context;
  EXPECT_EQ(run.report.value("conformant", false), true) << context;
  int passes = 0;
  for (const auto& result : run.report["results"]) {
    const std::string outcome = Field(result, "outcome");
    EXPECT_FALSE(IsFinding(outcome))
        << Field(result, "id") << " is " << outcome << ": " << Field(result, "message") << context;
    passes += outcome == "pass";
  }
  EXPECT_GT(passes, 0) << "a run that passes nothing checked nothing" << context;
  RemoveFilesUnlessFailed(run);
}

TEST_P(DefectivePlugin, IsCaughtByExactlyItsCheck) {
  const Expectation& e = GetParam();
  const HarnessRun run = RunHarness(e);
  const std::string context = Describe(run);
  ASSERT_FALSE(run.report.is_null()) << context;

  EXPECT_EQ(run.exit_code, e.ExpectedExitCode()) << context;
  EXPECT_EQ(run.report.value("conformant", true), e.outcome == "warning") << context;

  // Checks in the check's own root cause are the same defect, reported once (a refused dlopen:
  // the status the init function returns, load.se.init, and load.opened_libraries, which says
  // why).
  std::set<std::string> same_root_cause;
  for (const auto& cause : run.report.value("root_causes", nlohmann::json::array())) {
    const auto checks = cause.value("checks", std::vector<std::string>{});
    if (std::find(checks.begin(), checks.end(), e.check) != checks.end())
      same_root_cause.insert(checks.begin(), checks.end());
  }
  int found = 0;
  for (const auto& result : run.report["results"]) {
    const std::string id = Field(result, "id");
    const std::string outcome = Field(result, "outcome");
    if (id != e.check && same_root_cause.contains(id)) continue;
    if (id != e.check) {
      EXPECT_FALSE(IsFinding(outcome))
          << "only " << e.check << " may catch " << e.variant << ", but " << id << " is " << outcome
          << ": " << Field(result, "message") << context;
      continue;
    }
    ++found;
    EXPECT_EQ(outcome, e.outcome) << id << context;
    const std::string message = Field(result, "message");
    if (e.message) {
      EXPECT_EQ(message, *e.message) << id << context;
    }
    if (e.contains) {
      EXPECT_NE(Lower(message).find(Lower(*e.contains)), std::string::npos)
          << id << ": message lacks \"" << *e.contains << "\"" << context;
    }
    if (e.tf_code) {
      ASSERT_TRUE(result.contains("tf_code") && result["tf_code"].is_number_integer())
          << id << ": no tf_code, expected " << *e.tf_code << context;
      EXPECT_EQ(result["tf_code"].get<int>(), *e.tf_code) << id << context;
    }
    if (e.failing_call) {
      EXPECT_EQ(result.value("details", nlohmann::json::object()).value("failing_call", ""),
                *e.failing_call)
          << id << context;
    }
  }
  EXPECT_EQ(found, 1) << e.check << " reported " << found << " times" << context;
  RemoveFilesUnlessFailed(run);
}

INSTANTIATE_TEST_SUITE_P(LoadDefects, CorrectPlugin, testing::ValuesIn(Passing()), TestName);
INSTANTIATE_TEST_SUITE_P(LoadDefects, DefectivePlugin, testing::ValuesIn(Defects()), TestName);

}  // namespace
}  // namespace load_defects
