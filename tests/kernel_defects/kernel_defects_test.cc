// Each variant of the kernel plugin (kernel_plugin.cc) is run through the kernel tier the way a
// vendor runs it (plugin_conformance <variant>.so --tier kernels --json), with the defect-free
// variant as the oracle. A defective variant must be caught by exactly its check (every
// failing id matches the expected glob, with the expected outcome and problem, and at least one
// does); the defect-free one must pass everything it registers; the one without kernels must
// get not_supported, never a failure.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct Expectation {
  std::string variant, define, glob, outcome, problem;
};

void PrintTo(const Expectation& e, std::ostream* out) { *out << e.variant << " -> " << e.glob; }

std::vector<Expectation> LoadExpectations() {
  std::vector<Expectation> all;
  std::ifstream in(EXPECTATIONS_FILE);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> parts;
    std::stringstream fields(line);
    for (std::string part; std::getline(fields, part, '|');) parts.push_back(part);
    if (parts.size() == 5) all.push_back({parts[0], parts[1], parts[2], parts[3], parts[4]});
  }
  return all;
}

// '*' matches within one dot-separated component.
bool Matches(const char* glob, const char* text) {
  if (*glob == '\0') return *text == '\0';
  if (*glob == '*') {
    for (const char* t = text;; ++t) {
      if (Matches(glob + 1, t)) return true;
      if (*t == '\0' || *t == '.') return false;
    }
  }
  return *glob == *text && Matches(glob + 1, text + 1);
}

std::string Shell(const std::string& text) { return "'" + text + "'"; }

nlohmann::json RunKernelTier(const std::string& variant) {
  const std::string plugin = std::string(KERNEL_DEFECTS_DIR) + "/" + variant + ".so";
  const std::string oracle = std::string(KERNEL_DEFECTS_DIR) + "/good.so";
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("kernel_defect_" + variant + "_" + std::to_string(getpid()) + ".json"))
                               .string();
  const std::string command = "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(oracle) + " " +
                              Shell(PLUGIN_CONFORMANCE) + " " + Shell(plugin) +
                              " --tier kernels --filter 'kernel.AddV2.*' --seed 7 --json " +
                              Shell(json) + " > /dev/null 2>&1";
  if (std::system(command.c_str()) == -1) return {};
  std::ifstream in(json);
  if (!in) return {};
  nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  return report;
}

class KernelDefect : public testing::TestWithParam<Expectation> {};

TEST_P(KernelDefect, IsCaughtByExactlyItsCheck) {
  const Expectation& expected = GetParam();
#if defined(__SANITIZE_THREAD__)
  // The defect's detached thread writes 30 ms after compute returned; under ThreadSanitizer the
  // harness is slow enough that the write lands in a later check's tensors, which then crashes.
  if (expected.variant == "work_off_stream") {
    GTEST_SKIP() << "detected by timing, which a ThreadSanitizer build distorts";
  }
#endif
  const nlohmann::json report = RunKernelTier(expected.variant);
  ASSERT_TRUE(report.contains("results")) << "no JSON report for " << expected.variant;
  int caught = 0, passed = 0, checks = 0;
  for (const auto& result : report.at("results")) {
    const std::string id = result.at("id");
    const std::string outcome = result.at("outcome");
    const std::string message = result.value("message", "");
    ++checks;
    if (outcome == "pass") ++passed;
    const bool bad = outcome == "fail" || outcome == "crash" || outcome == "timeout";
    if (expected.glob != "-" && Matches(expected.glob.c_str(), id.c_str()) && bad) {
      ++caught;
      EXPECT_EQ(outcome, expected.outcome) << id << ": " << message;
      if (expected.problem != "-") {
        EXPECT_EQ(result.at("details").value("problem", ""), expected.problem)
            << id << ": " << message;
      }
      continue;
    }
    EXPECT_FALSE(bad) << expected.variant << " also trips " << id << " (" << outcome
                      << "): " << message;
    if (expected.variant == "good") {
      EXPECT_NE(outcome, "skipped") << id << ": " << message;
    }
    if (expected.variant == "no_kernels") {
      EXPECT_EQ(outcome, "not_supported") << id << ": " << message;
    }
    if (expected.variant == "label_only") {
      // Nothing can run a kernel TensorFlow would not pick: no check passes having tested nothing.
      EXPECT_EQ(outcome, "not_supported") << id << ": " << message;
      EXPECT_NE(message.find("only under the label 'special'"), std::string::npos) << message;
    }
  }
  EXPECT_GE(checks, 10);
  if (expected.glob != "-") {
    EXPECT_GE(caught, 1) << expected.glob << " did not catch " << expected.variant;
  }
  if (expected.variant == "good") {
    EXPECT_GE(passed, 10);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, KernelDefect, testing::ValuesIn(LoadExpectations()),
                         [](const testing::TestParamInfo<Expectation>& info) {
                           return info.param.variant;
                         });

}  // namespace
