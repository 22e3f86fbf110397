// A plugin whose create_stream never writes the handle, plus two independent defects
// (host_callback returns false, host_memory_allocate returns NULL): the runtime tier carries on
// with TensorFlow's NULL handle, so the result names exactly three culprits, each through
// details failing_call/problem, and every failure carries one of them. A fourth name is only a
// warning: its get_event_status says COMPLETE for every event (the legal null_streams pattern),
// which nothing here can show to be wrong. Run under tf2.10: TensorFlow 2.21 never calls
// host_callback, so under the newest profile that culprit's failures are warnings
// (model/tensorflow_reach.h); the attribution is held where they stand.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

TEST(RootCauses, TwoDefectsBehindAnUnwrittenStreamHandleAreThreeCulprits) {
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("root_causes_" + std::to_string(getpid()) + ".json"))
                               .string();
  const std::string command =
      std::string("'") + PLUGIN_CONFORMANCE + "' '" + PLUGIN +
      "' --tier runtime --filter 'runtime.*-runtime.scenario.*' --profile tf2.10 --seed 7 "
      "--json '" +
      json + "' > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << command;
  std::ifstream in(json);
  ASSERT_TRUE(in) << "no JSON report from: " << command;
  const nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);

  std::set<std::pair<std::string, std::string>> culprits;
  int failures = 0;
  for (const auto& result : report.at("results")) {
    const std::string outcome = result.at("outcome");
    if (outcome != "fail" && outcome != "warning") continue;
    const auto details = result.value("details", nlohmann::json::object());
    const std::string id = result.at("id");
    if (outcome == "fail") {
      ++failures;
      EXPECT_TRUE(details.contains("failing_call") && details.contains("problem"))
          << id << " fails without naming its culprit: " << result.value("message", "");
    }
    if (details.contains("failing_call")) {
      culprits.insert({details.at("failing_call").get<std::string>(),
                       details.at("problem").get<std::string>()});
    }
  }
  const std::set<std::pair<std::string, std::string>> expected = {
      {"create_stream", "out-parameter never written"},
      {"host_callback", "returned false"},
      {"host_memory_allocate", "returned NULL"},
      {"get_event_status", "event COMPLETE whatever was recorded"}};
  EXPECT_EQ(culprits, expected);
  EXPECT_GE(failures, 2);
}

}  // namespace
