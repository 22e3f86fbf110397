// What the installed TensorFlow did with the plugin, as results of the run (issue 29): the
// driver's JSON in, at most one result out. tests/installed_deaths runs the real thing.
#include "installed_tensorflow/session_deaths.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "installed_tensorflow/driver_process.h"

namespace tensorflow_driver {
namespace {

using conformance::CheckResult;
using conformance::Outcome;
using nlohmann::json;

json Loaded() {
  return {{"tensorflow_version", "2.21.0"},
          {"outcome", "loaded"},
          {"load_status", {{"code", 0}, {"message", ""}}},
          {"devices_outcome", "created"}};
}

json DiedIn(json in_flight, int signal) {
  json result = Loaded();
  result["died"] = {{"after_step", "op_started"},
                    {"in_flight", std::move(in_flight)},
                    {"signal", signal},
                    {"exit_code", -1},
                    {"timed_out", false}};
  return result;
}

CheckResult Only(const json& driver_result) {
  const std::vector<CheckResult> results = InstalledSessionResults(driver_result);
  EXPECT_EQ(results.size(), 1u) << driver_result.dump();
  return results.empty() ? CheckResult{} : results.front();
}

TEST(InstalledSessionResults, NothingWhenTensorFlowLoadedThePluginAndTheSessionEnded) {
  EXPECT_TRUE(InstalledSessionResults(Loaded()).empty());
}

TEST(InstalledSessionResults, AnAbortAtLoadFailsWithTensorFlowsStatus) {
  const CheckResult result = Only({{"tensorflow_version", "2.21.0"},
                                   {"outcome", "aborted"},
                                   {"fatal", {{"message", "no good"}, {"code", 9}}}});
  EXPECT_EQ(result.id, kLoadInTensorFlowCheckId);
  EXPECT_EQ(result.tier, "load");
  EXPECT_EQ(result.outcome, Outcome::kFail);
  EXPECT_EQ(result.tf_code, 9);
  EXPECT_NE(result.message.find("the installed TensorFlow 2.21.0 while loading the plugin"),
            std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("aborts: FAILED_PRECONDITION: no good"), std::string::npos)
      << result.message;
}

TEST(InstalledSessionResults, ARefusalAtTheFirstDeviceIsALoadFailure) {
  json driver_result = Loaded();
  driver_result["devices_outcome"] = "failed";
  driver_result["devices_status"] = {{"code", 13}, {"message", "no device"}};
  const CheckResult result = Only(driver_result);
  EXPECT_EQ(result.id, kLoadInTensorFlowCheckId);
  EXPECT_EQ(result.outcome, Outcome::kFail);
  EXPECT_NE(result.message.find("at the plugin's first use"), std::string::npos) << result.message;
}

TEST(InstalledSessionResults, ACrashWhileLoadingIsACrashNamingTheSignal) {
  const CheckResult result =
      Only({{"tensorflow_version", "2.21.0"},
            {"outcome", "crashed"},
            {"died", {{"in_flight", {{"step", "load"}}}, {"signal", 11}, {"timed_out", false}}}});
  EXPECT_EQ(result.id, kLoadInTensorFlowCheckId);
  EXPECT_EQ(result.outcome, Outcome::kCrash);
  EXPECT_NE(result.message.find("died of signal 11 (SIGSEGV) while loading the plugin"),
            std::string::npos)
      << result.message;
  ASSERT_TRUE(result.crash.has_value());
  EXPECT_EQ(result.crash->signal, "SIGSEGV");
}

TEST(InstalledSessionResults, AStalledLoadIsATimeoutNamingThePerStepLimit) {
  const CheckResult result = Only({{"tensorflow_version", "2.21.0"},
                                   {"outcome", "timeout"},
                                   {"died",
                                    {{"in_flight", {{"step", "load"}}},
                                     {"signal", 9},
                                     {"timed_out", true},
                                     {"stalled", true},
                                     {"limit_ms", 5000}}}});
  EXPECT_EQ(result.outcome, Outcome::kTimeout);
  EXPECT_NE(result.message.find("made no progress for 5000 ms (the per-step limit, --timeout)"),
            std::string::npos)
      << result.message;
}

TEST(InstalledSessionResults, ADeathInTheFirstOpsBlamesThatKernel) {
  const CheckResult result = Only(DiedIn({{"step", "op"}, {"op", "AddV2"}}, 11));
  EXPECT_EQ(result.id, kSessionInTensorFlowCheckId);
  EXPECT_EQ(result.tier, "runtime");
  EXPECT_EQ(result.outcome, Outcome::kCrash);
  EXPECT_NE(result.message.find("died of signal 11 (SIGSEGV) running the plugin's AddV2 kernel"),
            std::string::npos)
      << result.message;
  EXPECT_EQ(result.details.at("kernel"), "AddV2");
  EXPECT_EQ(result.details.at("failing_call"), "compute_func");
  EXPECT_EQ(result.details.at("problem"), "dies inside TensorFlow");
}

TEST(InstalledSessionResults, ADeathInACopyNamesTheDtype) {
  const CheckResult result = Only(DiedIn({{"step", "copy"}, {"dtype", "half"}}, 7));
  EXPECT_EQ(result.id, kSessionInTensorFlowCheckId);
  EXPECT_NE(result.message.find("copying a half tensor"), std::string::npos) << result.message;
  EXPECT_EQ(result.details.count("kernel"), 0u);
}

TEST(InstalledSessionResults, KernelCasesAndModelsFileTheirOwnDeaths) {
  EXPECT_TRUE(InstalledSessionResults(DiedIn({{"step", "kernel_case"}, {"id", "k"}}, 11)).empty());
  EXPECT_TRUE(
      InstalledSessionResults(DiedIn({{"step", "model_graph"}, {"model", "m"}}, 11)).empty());
}

TEST(InstalledSessionResults, ADriverThatDiedIsACrashOfTheSession) {
  const json driver_result = DriverDiedResult(
      DriverDied("the TensorFlow driver was killed by signal 6: oops", false, 1000), "2.21.0");
  const CheckResult result = Only(driver_result);
  EXPECT_EQ(result.id, kSessionInTensorFlowCheckId);
  EXPECT_EQ(result.outcome, Outcome::kCrash);
  EXPECT_NE(result.message.find("the TensorFlow driver died before it said what the installed "
                                "TensorFlow 2.21.0 did with the plugin: the TensorFlow driver was "
                                "killed by signal 6: oops"),
            std::string::npos)
      << result.message;
  const json timed_out = DriverDiedResult(DriverDied("late", true, 150000), "");
  EXPECT_EQ(Only(timed_out).outcome, Outcome::kTimeout);
}

// Issue 29 item 8: the session's allowance running out while a kernel case runs within its own
// limit (--timeout) is the session's timeout, never a hang blamed on that case's kernel.
TEST(InstalledSessionResults, ASessionOverrunIsTheSessionsTimeoutNotTheKernels) {
  json driver_result =
      DiedIn({{"step", "kernel_case"}, {"id", "kernel.AddV2.float.same_shape"}}, 0);
  driver_result["died"]["timed_out"] = true;
  driver_result["died"]["stalled"] = false;
  driver_result["died"]["limit_ms"] = 60000;
  const CheckResult result = Only(driver_result);
  EXPECT_EQ(result.id, kSessionInTensorFlowCheckId);
  EXPECT_EQ(result.outcome, Outcome::kTimeout);
  EXPECT_FALSE(result.details.contains("failing_call")) << result.message;
  EXPECT_FALSE(result.details.contains("kernel")) << result.message;
  EXPECT_NE(result.message.find("outlived the session's 60000 ms"), std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("which blames no kernel"), std::string::npos) << result.message;
  // A step over its own limit is that step's hang: the kernel case's judge files it.
  driver_result["died"]["stalled"] = true;
  EXPECT_TRUE(InstalledSessionResults(driver_result).empty());
}

// The session's checks always report: TensorFlow loaded the plugin and the session ended.
json WithCopies(std::initializer_list<std::pair<const char*, bool>> copies) {
  json result = Loaded();
  result["copies"] = json::array();
  for (const auto& [dtype, equal] : copies) {
    result["copies"].push_back({{"dtype", dtype}, {"equal", equal}});
  }
  return result;
}

const CheckResult& ResultOf(const std::vector<CheckResult>& results, const char* id) {
  for (const CheckResult& result : results) {
    if (result.id == id) return result;
  }
  static const CheckResult kNone;
  ADD_FAILURE() << "no result for " << id;
  return kNone;
}

// The driver's `ops`: each float op, with `equal` when it ran on both devices.
json WithOps(json driver_result, std::initializer_list<std::pair<const char*, bool>> ops) {
  driver_result["ops"] = json::array();
  for (const auto& [op, equal] : ops) {
    driver_result["ops"].push_back({{"op", op}, {"equal", equal}});
  }
  return driver_result;
}

TEST(InstalledSessionChecks, AllPassWhenTheSessionEndedWithItsCopiesAndOpsRight) {
  const std::vector<CheckResult> results = InstalledSessionChecks(
      WithOps(WithCopies({{"float", true}, {"int8", true}}), {{"AddV2", true}, {"Neg", true}}));
  ASSERT_EQ(results.size(), 4u);
  for (const CheckResult& result : results) EXPECT_EQ(result.outcome, Outcome::kPass) << result.id;
}

// Issue 29: a copy inside TensorFlow that ran but came back with other bytes failed nothing.
TEST(InstalledSessionChecks, ACopyBackWithOtherBytesFailsTheCopyCheck) {
  const std::vector<CheckResult> results =
      InstalledSessionChecks(WithCopies({{"float", true}, {"int8", false}, {"bool", false}}));
  const CheckResult& copy = ResultOf(results, kCopyInTensorFlowCheckId);
  EXPECT_EQ(copy.outcome, Outcome::kFail);
  EXPECT_NE(copy.message.find("int8"), std::string::npos) << copy.message;
  EXPECT_NE(copy.message.find("2 of 3"), std::string::npos) << copy.message;
  EXPECT_EQ(ResultOf(results, kSessionInTensorFlowCheckId).outcome, Outcome::kPass);
}

TEST(InstalledSessionChecks, TheCopyCheckIsSkippedWhenNoCopyCameBack) {
  EXPECT_EQ(ResultOf(InstalledSessionChecks(Loaded()), kCopyInTensorFlowCheckId).outcome,
            Outcome::kSkipped);
  json errored = Loaded();
  errored["copies"] = json::array({{{"dtype", "float"}, {"error", {{"code", 13}}}}});
  EXPECT_EQ(ResultOf(InstalledSessionChecks(errored), kCopyInTensorFlowCheckId).outcome,
            Outcome::kSkipped);
}

// Issue 29: the session's first float ops came back different from TensorFlow's CPU and failed
// nothing. Now the op's kernel is blamed, as the kernel cases blame it, so both are one root cause.
TEST(InstalledSessionChecks, AFloatOpThatDiffersFromTheCpuFailsOnItsKernel) {
  const std::vector<CheckResult> results = InstalledSessionChecks(
      WithOps(WithCopies({{"float", true}}), {{"AddV2", false}, {"Mul", true}, {"Sub", false}}));
  const CheckResult& ops = ResultOf(results, kFloatOpsInTensorFlowCheckId);
  EXPECT_EQ(ops.outcome, Outcome::kFail);
  EXPECT_NE(ops.message.find("2 of the session's 3 float ops"), std::string::npos) << ops.message;
  EXPECT_NE(ops.message.find("AddV2, Sub"), std::string::npos) << ops.message;
  EXPECT_EQ(ops.details.at("failing_call"), "compute_func");
  EXPECT_EQ(ops.details.at("problem"), "wrong values");
  EXPECT_EQ(ops.details.at("kernel"), "AddV2");
  EXPECT_EQ(ResultOf(results, kCopyInTensorFlowCheckId).outcome, Outcome::kPass);
}

// Wrong copies make the ops' inputs wrong too: the copy is the one root cause.
TEST(InstalledSessionChecks, TheFloatOpsAreNotJudgedAfterAWrongCopy) {
  const std::vector<CheckResult> results =
      InstalledSessionChecks(WithOps(WithCopies({{"float", false}}), {{"AddV2", false}}));
  EXPECT_EQ(ResultOf(results, kCopyInTensorFlowCheckId).outcome, Outcome::kFail);
  const CheckResult& ops = ResultOf(results, kFloatOpsInTensorFlowCheckId);
  EXPECT_EQ(ops.outcome, Outcome::kSkipped);
  EXPECT_NE(ops.message.find(kCopyInTensorFlowCheckId), std::string::npos) << ops.message;
}

// An op that failed on the plugin's side (no float kernel) or ran nowhere is not judged.
TEST(InstalledSessionChecks, TheFloatOpsAreSkippedWhenNoneRanOnTheDevice) {
  json errored = WithCopies({{"float", true}});
  errored["ops"] = json::array({{{"op", "AddV2"}, {"plugin", {{"error", {{"code", 5}}}}}}});
  EXPECT_EQ(ResultOf(InstalledSessionChecks(errored), kFloatOpsInTensorFlowCheckId).outcome,
            Outcome::kSkipped);
}

}  // namespace
}  // namespace tensorflow_driver
