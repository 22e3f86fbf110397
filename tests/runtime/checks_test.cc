// The C++ runtime checks and the stress tier pass on the asynchronous reference plugin and on
// the synchronous minimal plugin of tests/load_defects (synchronous streams are legal), run
// exactly as a vendor runs them.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

// The minimal plugin's device memory is the C heap: under a sanitizer, a 1 PiB request must
// come back as NULL (as from glibc), not as a sanitizer report. Appended to whatever the user set.
void AllowNullFromHugeAllocations() {
  for (const char* name : {"ASAN_OPTIONS", "TSAN_OPTIONS"}) {
    const char* current = std::getenv(name);
    if (current != nullptr &&
        std::string(current).find("allocator_may_return_null=1") != std::string::npos)
      continue;
    std::string value =
        current != nullptr && *current != '\0' ? std::string(current) + ":" : std::string();
    setenv(name, (value + "allocator_may_return_null=1").c_str(), 1);
  }
}

std::string Outcome(const std::string& text) { return text.substr(0, text.find(':')); }

// id -> "outcome: message" of one plugin_conformance run of `tier` (C++ checks only).
std::map<std::string, std::string> RunTier(const std::string& plugin, const std::string& tier) {
  AllowNullFromHugeAllocations();
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("runtime_checks_" + tier + "_" + std::to_string(getpid()) + ".json"))
                               .string();
  const std::string command =
      std::string("'") + PLUGIN_CONFORMANCE + "' '" + plugin + "' --tier " + tier + " --filter '" +
      tier + ".*-runtime.scenario.*' --seed 11 --json '" + json + "' > /dev/null 2>&1";
  EXPECT_NE(std::system(command.c_str()), -1);
  std::ifstream in(json);
  EXPECT_TRUE(in) << command;
  std::map<std::string, std::string> outcomes;
  if (!in) return outcomes;
  const nlohmann::json report = nlohmann::json::parse(in);  // named: the loop refers into it
  for (const auto& result : report.at("results")) {
    outcomes[result.at("id")] =
        std::string(result.at("outcome")) + ": " + result.value("message", "");
  }
  std::filesystem::remove(json);
  return outcomes;
}

TEST(RuntimeChecks, AllPassOnTheReferencePlugin) {
  const auto outcomes = RunTier(REFERENCE_PLUGIN_PATH, "runtime");
  EXPECT_GE(outcomes.size(), 24u);
  for (const auto& [id, outcome] : outcomes)
    EXPECT_EQ(Outcome(outcome), "pass") << id << " " << outcome;
}

TEST(RuntimeChecks, AllPassOnTheSynchronousMinimalPlugin) {
  const auto outcomes = RunTier(MINIMAL_PLUGIN_PATH, "runtime");
  EXPECT_GE(outcomes.size(), 24u);
  // Legal but flagged: it never writes statuses and drops host-callback errors (both warnings).
  const std::set<std::string> warnings = {"runtime.statuses.written",
                                          "runtime.callback.error_propagates"};
  for (const auto& [id, outcome] : outcomes) {
    EXPECT_EQ(Outcome(outcome), warnings.contains(id) ? "warning" : "pass") << id << " " << outcome;
  }
}

TEST(StressTier, PassesOnTheReferenceAndTheMinimalPlugin) {
  for (const char* plugin : {REFERENCE_PLUGIN_PATH, MINIMAL_PLUGIN_PATH}) {
    const auto outcomes = RunTier(plugin, "stress");
    EXPECT_EQ(outcomes.size(), 2u) << plugin;
    for (const auto& [id, outcome] : outcomes)
      EXPECT_EQ(Outcome(outcome), "pass") << plugin << " " << id << " " << outcome;
  }
}

}  // namespace
