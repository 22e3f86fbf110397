// The driver's child without TensorFlow: the per-step limit (a hang costs one step's limit, not
// the session's) and where a child that died was (`died.in_flight`, from its last report line).
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "installed_tensorflow/child_process.h"
#include "installed_tensorflow/driver_outcome.h"
#include "installed_tensorflow/driver_steps.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

TEST(RunInChild, AChildThatStopsReportingIsKilledAtTheStepLimit) {
  const auto started = std::chrono::steady_clock::now();
  const ChildResult child = RunInChild(
      [](std::FILE* report) {
        Emit(report, {{"step", "started"}});
        std::this_thread::sleep_for(std::chrono::seconds(60));
      },
      60000, 300);
  EXPECT_TRUE(child.timed_out);
  EXPECT_TRUE(child.stalled);
  EXPECT_EQ(child.limit_ms, 300);
  EXPECT_EQ(child.signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

TEST(RunInChild, AChildThatKeepsReportingOutlivesTheStepLimit) {
  const ChildResult child = RunInChild(
      [](std::FILE* report) {
        for (int step = 0; step < 8; ++step) {
          Emit(report, {{"step", "copy"}});
          std::this_thread::sleep_for(milliseconds(100));
        }
      },
      60000, 400);
  EXPECT_FALSE(child.timed_out);
  EXPECT_EQ(child.exit_code, 0);
}

TEST(RunInChild, WithoutAStepLimitOnlyTheWholeDeadlineCounts) {
  const ChildResult child =
      RunInChild([](std::FILE*) { std::this_thread::sleep_for(std::chrono::seconds(60)); }, 300);
  EXPECT_TRUE(child.timed_out);
  EXPECT_FALSE(child.stalled);
  EXPECT_EQ(child.limit_ms, 300);
}

ChildResult DiedAfter(const std::string& report, int signal) {
  ChildResult child;
  child.signal = signal;
  child.report = report;
  return child;
}

const std::string kLoaded = R"({"step":"started","tensorflow_version":"2.21.0"})"
                            "\n"
                            R"({"step":"load","result":{"code":0,"message":""}})"
                            "\n"
                            R"({"step":"devices","devices":[]})"
                            "\n";

TEST(DriverOutcome, TheOpStartedLastIsTheOneItDiedIn) {
  const json result = Outcome(PluginRequest{"p.so", "", "", ""},
                              DiedAfter(kLoaded + R"({"step":"copy_started","dtype":"float"})"
                                                  "\n"
                                                  R"({"step":"copy","result":{}})"
                                                  "\n"
                                                  R"({"step":"op_started","op":"AddV2"})"
                                                  "\n",
                                        SIGSEGV));
  EXPECT_EQ(result.at("outcome"), "loaded");
  EXPECT_EQ(result.at("devices_outcome"), "created");
  EXPECT_EQ(result.at("died").at("in_flight"), (json{{"step", "op"}, {"op", "AddV2"}}));
  EXPECT_EQ(result.at("died").at("signal"), SIGSEGV);
}

TEST(DriverOutcome, ACopyThatNeverEndedNamesItsDtype) {
  const json result = Outcome(PluginRequest{"p.so", "", "", ""},
                              DiedAfter(kLoaded + R"({"step":"copy_started","dtype":"half"})"
                                                  "\n",
                                        SIGBUS));
  EXPECT_EQ(result.at("died").at("in_flight"), (json{{"step", "copy"}, {"dtype", "half"}}));
}

TEST(DriverOutcome, ADeathWhileLoadingIsInFlightAtLoad) {
  ChildResult child = DiedAfter(R"({"step":"started","tensorflow_version":"2.21.0"})"
                                "\n",
                                SIGKILL);
  child.timed_out = true;
  child.stalled = true;
  child.limit_ms = 5000;
  const json result = Outcome(PluginRequest{"p.so", "", "", ""}, child);
  EXPECT_EQ(result.at("outcome"), "timeout");
  EXPECT_EQ(result.at("died").at("in_flight"), (json{{"step", "load"}}));
  EXPECT_TRUE(result.at("died").at("stalled").get<bool>());
  EXPECT_EQ(result.at("died").at("limit_ms"), 5000);
}

}  // namespace
}  // namespace tensorflow_driver
