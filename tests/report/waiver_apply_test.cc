// Waived failures become `waived`, waived passes `unexpected_pass`; stale waivers warn.
#include "run/waiver_apply.h"

#include <gtest/gtest.h>

#include "run/root_causes.h"

namespace conformance {
namespace {

using std::chrono::year_month_day;

CheckResult Result(std::string id, Outcome outcome, std::string message = "") {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = std::move(message);
  return result;
}

Waiver MakeWaiver(std::string id, std::string reason, std::string profile = "",
                  std::optional<year_month_day> until = std::nullopt) {
  return Waiver{std::move(id), std::move(reason), std::move(profile), until, "w.yaml:1:3", false};
}

const year_month_day kToday{std::chrono::year(2026), std::chrono::November, std::chrono::day(21)};

WaiverContext Context(std::vector<std::string> selected, std::string profile = "newest") {
  return WaiverContext{std::move(profile), kToday, std::move(selected)};
}

TEST(WaiverApplyTest, FailuresCrashesAndTimeoutsBecomeWaivedKeepingTheMessage) {
  std::vector<CheckResult> results = {
      Result("runtime.a", Outcome::kFail, "bad value"),
      Result("runtime.b", Outcome::kCrash, "SIGSEGV"),
      Result("runtime.c", Outcome::kTimeout, "hung"),
  };
  const auto applied = ApplyWaivers(results, {MakeWaiver("runtime.*", "ticket 7")},
                                    Context({"runtime.a", "runtime.b", "runtime.c"}));
  for (const CheckResult& result : results) {
    EXPECT_EQ(result.outcome, Outcome::kWaived) << result.id;
    EXPECT_EQ(result.waiver_reason, "ticket 7");
  }
  EXPECT_EQ(results[0].message, "bad value");
  EXPECT_EQ(results[1].message, "SIGSEGV");
  EXPECT_TRUE(applied.warnings.empty());
}

TEST(WaiverApplyTest, WaivedPassBecomesUnexpectedPass) {
  std::vector<CheckResult> results = {Result("load.x", Outcome::kPass)};
  ApplyWaivers(results, {MakeWaiver("load.x", "was broken")}, Context({"load.x"}));
  EXPECT_EQ(results[0].outcome, Outcome::kUnexpectedPass);
  EXPECT_EQ(results[0].waiver_reason, "was broken");
  EXPECT_NE(results[0].message.find("w.yaml:1:3"), std::string::npos);
  EXPECT_TRUE(BreaksConformance(results[0].outcome));
}

TEST(WaiverApplyTest, WarningsNotSupportedAndSkippedAreLeftAlone) {
  std::vector<CheckResult> results = {
      Result("a", Outcome::kWarning, "w"),
      Result("b", Outcome::kNotSupported),
      Result("c", Outcome::kSkipped),
  };
  ApplyWaivers(results, {MakeWaiver("*", "all")}, Context({"a", "b", "c"}));
  EXPECT_EQ(results[0].outcome, Outcome::kWarning);
  EXPECT_EQ(results[1].outcome, Outcome::kNotSupported);
  EXPECT_EQ(results[2].outcome, Outcome::kSkipped);
  EXPECT_TRUE(results[0].waiver_reason.empty());
}

TEST(WaiverApplyTest, UnwaivedResultsAreUntouched) {
  std::vector<CheckResult> results = {Result("kernel.x", Outcome::kFail, "m")};
  ApplyWaivers(results, {MakeWaiver("runtime.*", "r")}, Context({"kernel.x"}));
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
}

TEST(WaiverApplyTest, FirstMatchingWaiverWins) {
  std::vector<CheckResult> results = {Result("runtime.a", Outcome::kFail)};
  ApplyWaivers(results, {MakeWaiver("runtime.a", "specific"), MakeWaiver("runtime.*", "broad")},
               Context({"runtime.a"}));
  EXPECT_EQ(results[0].waiver_reason, "specific");
}

TEST(WaiverApplyTest, WaiverMatchingNoSelectedCheckWarns) {
  std::vector<CheckResult> results = {Result("runtime.a", Outcome::kFail)};
  const auto applied =
      ApplyWaivers(results, {MakeWaiver("kernel.*", "old")}, Context({"runtime.a"}));
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_NE(applied.warnings[0].find("'kernel.*' matches no selected check"), std::string::npos);
}

TEST(WaiverApplyTest, WaiverForACheckOnAnotherShardDoesNotWarn) {
  std::vector<CheckResult> results;  // this shard ran nothing the waiver covers
  const auto applied =
      ApplyWaivers(results, {MakeWaiver("runtime.b", "x")}, Context({"runtime.a", "runtime.b"}));
  EXPECT_TRUE(applied.warnings.empty());
}

TEST(WaiverApplyTest, ProfileRestrictsAWaiver) {
  std::vector<CheckResult> results = {Result("a", Outcome::kFail)};
  ApplyWaivers(results, {MakeWaiver("a", "old TF only", "tf2.1?")}, Context({"a"}, "tf2.9"));
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
  ApplyWaivers(results, {MakeWaiver("a", "old TF only", "tf2.1?")}, Context({"a"}, "tf2.15"));
  EXPECT_EQ(results[0].outcome, Outcome::kWaived);
}

TEST(WaiverApplyTest, ExpiredWaiverIsNotAppliedAndWarns) {
  using namespace std::chrono;
  std::vector<CheckResult> results = {Result("a", Outcome::kFail), Result("b", Outcome::kFail)};
  const auto applied =
      ApplyWaivers(results,
                   {MakeWaiver("a", "r", "", year_month_day(year(2026), November, day(20))),
                    MakeWaiver("b", "r", "", year_month_day(year(2026), November, day(21)))},
                   Context({"a", "b"}));
  EXPECT_EQ(results[0].outcome, Outcome::kFail);    // expired yesterday
  EXPECT_EQ(results[1].outcome, Outcome::kWaived);  // `until` is inclusive
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_NE(applied.warnings[0].find("expired on 2026-11-20"), std::string::npos);
}

TEST(WaiverApplyTest, GlobWaivesTheFailuresItMatchesAndLeavesItsPassesAlone) {
  std::vector<CheckResult> results = {Result("runtime.memcpy.htod", Outcome::kFail, "bad"),
                                      Result("runtime.memcpy.dtoh", Outcome::kPass)};
  const auto applied = ApplyWaivers(results, {MakeWaiver("runtime.memcpy.*", "DMA bug")},
                                    Context({"runtime.memcpy.htod", "runtime.memcpy.dtoh"}));
  EXPECT_EQ(results[0].outcome, Outcome::kWaived);
  EXPECT_EQ(results[1].outcome, Outcome::kPass);
  EXPECT_TRUE(results[1].waiver_reason.empty());
  EXPECT_TRUE(applied.warnings.empty());
}

TEST(WaiverApplyTest, GlobThatWaivesNoFailureIsReportedUnused) {
  std::vector<CheckResult> results = {Result("runtime.memcpy.htod", Outcome::kPass)};
  const auto applied = ApplyWaivers(results, {MakeWaiver("runtime.memcpy.*", "DMA bug")},
                                    Context({"runtime.memcpy.htod"}));
  EXPECT_EQ(results[0].outcome, Outcome::kPass);
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_EQ(applied.warnings[0],
            "w.yaml:1:3: unused waiver: 'runtime.memcpy.*' matches no failing check in this run");
}

TEST(WaiverApplyTest, ExactIdThatPassesIsUnexpectedPassEvenAfterAGlob) {
  std::vector<CheckResult> results = {Result("runtime.a", Outcome::kPass)};
  ApplyWaivers(results, {MakeWaiver("runtime.*", "broad"), MakeWaiver("runtime.a", "this one")},
               Context({"runtime.a"}));
  EXPECT_EQ(results[0].outcome, Outcome::kUnexpectedPass);
  EXPECT_EQ(results[0].waiver_reason, "this one");
}

CheckResult Caused(std::string id, std::string call, std::string problem) {
  CheckResult result = Result(std::move(id), Outcome::kFail, "m");
  result.details[kFailingCallKey] = std::move(call);
  result.details[kProblemKey] = std::move(problem);
  return result;
}

Waiver RootCauseWaiver(std::string callback, std::string problem) {
  Waiver waiver = MakeWaiver("", "stream rewrite");
  waiver.callback = std::move(callback);
  waiver.problem = std::move(problem);
  return waiver;
}

TEST(WaiverApplyTest, RootCauseWaiverWaivesEveryFailureOfThatCauseOnly) {
  std::vector<CheckResult> results = {
      Caused("runtime.a", "create_stream", "out-parameter never written"),
      Caused("runtime.b", "create_stream", "out-parameter never written"),
      Caused("runtime.c", "create_stream", "returned an error"),
      Caused("runtime.d", "allocate", "out-parameter never written"),
      Result("runtime.e", Outcome::kPass),
  };
  const auto applied =
      ApplyWaivers(results, {RootCauseWaiver("create_stream", "out-parameter never written")},
                   Context({"runtime.a", "runtime.b", "runtime.c", "runtime.d", "runtime.e"}));
  EXPECT_EQ(results[0].outcome, Outcome::kWaived);
  EXPECT_EQ(results[1].outcome, Outcome::kWaived);
  EXPECT_EQ(results[1].waiver_reason, "stream rewrite");
  EXPECT_EQ(results[2].outcome, Outcome::kFail);
  EXPECT_EQ(results[3].outcome, Outcome::kFail);
  EXPECT_EQ(results[4].outcome, Outcome::kPass);
  EXPECT_TRUE(applied.warnings.empty());
}

TEST(WaiverApplyTest, RootCauseThatCausedNothingIsReportedUnused) {
  std::vector<CheckResult> results = {Result("runtime.a", Outcome::kPass)};
  const auto applied = ApplyWaivers(
      results, {RootCauseWaiver("create_stream", "returned an error")}, Context({"runtime.a"}));
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_EQ(applied.warnings[0],
            "w.yaml:1:3: unused waiver: root cause 'create_stream: returned an error' caused no "
            "failure in this run");
}

CheckResult KernelCaused(std::string id, std::string call, std::string kernel) {
  CheckResult result = Caused(std::move(id), std::move(call), "wrong values");
  result.details[kKernelKey] = std::move(kernel);
  return result;
}

// Issue 29 item 9: a root-cause waiver written for Relu waived MatMul too.
TEST(WaiverApplyTest, RootCauseWaiverNamingAKernelWaivesThatKernelOnly) {
  std::vector<CheckResult> results = {
      KernelCaused("kernel.Relu.float.a", "compute_func", "Relu"),
      KernelCaused("kernel.MatMul.float.a", "compute_func", "MatMul"),
      KernelCaused("kernel.Relu.float.a.in_tensorflow", "compute_func", "Relu"),
  };
  Waiver relu = RootCauseWaiver("compute_func", "wrong values");
  relu.kernel = "Relu";
  const auto applied = ApplyWaivers(results, {relu}, Context({"kernel.Relu.float.a"}));
  EXPECT_EQ(results[0].outcome, Outcome::kWaived);
  EXPECT_EQ(results[1].outcome, Outcome::kFail);
  EXPECT_EQ(results[2].outcome, Outcome::kWaived);
  EXPECT_TRUE(applied.warnings.empty());
}

// Without `kernel`, the root cause of every kernel: what a vendor writing only callback and
// problem means.
TEST(WaiverApplyTest, RootCauseWaiverWithoutKernelWaivesEveryKernel) {
  std::vector<CheckResult> results = {
      KernelCaused("kernel.Relu.float.a", "compute_func", "Relu"),
      KernelCaused("kernel.MatMul.float.a", "compute_func", "MatMul"),
  };
  ApplyWaivers(results, {RootCauseWaiver("compute_func", "wrong values")}, Context({}));
  EXPECT_EQ(results[0].outcome, Outcome::kWaived);
  EXPECT_EQ(results[1].outcome, Outcome::kWaived);
}

TEST(WaiverApplyTest, UnusedKernelWaiverNamesItsKernel) {
  std::vector<CheckResult> results = {
      KernelCaused("kernel.MatMul.float.a", "compute_func", "MatMul")};
  Waiver relu = RootCauseWaiver("compute_func", "wrong values");
  relu.kernel = "Relu";
  const auto applied = ApplyWaivers(results, {relu}, Context({"kernel.MatMul.float.a"}));
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_EQ(applied.warnings[0],
            "w.yaml:1:3: unused waiver: root cause 'compute_func (Relu): wrong values' caused no "
            "failure in this run");
}

// A flaky waiver on a check that failed on every run matched a failure it cannot excuse: it
// says so, where it said "unused" (issue 29 item 19).
TEST(WaiverApplyTest, FlakyWaiverOnAConsistentFailureSaysItFailedEveryRun) {
  std::vector<CheckResult> results = {Result("kernel.AddV2.float.broadcast", Outcome::kFail)};
  Waiver flaky = MakeWaiver("kernel.AddV2.*", "known flake");
  flaky.flaky = true;
  const auto applied = ApplyWaivers(results, {flaky}, Context({"kernel.AddV2.float.broadcast"}));
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
  ASSERT_EQ(applied.warnings.size(), 1u);
  EXPECT_EQ(applied.warnings[0],
            "w.yaml:1:3: flaky waiver 'kernel.AddV2.*' matched kernel.AddV2.float.broadcast, "
            "which failed on every run: `flaky: true` excuses only a check whose outcome varies "
            "between runs (--repeat), not a consistent failure; fix it, or waive it without "
            "`flaky: true`");
}

}  // namespace
}  // namespace conformance
