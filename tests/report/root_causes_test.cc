// Root-cause grouping: equal (failing_call, problem) is one cause; a failure without the keys
// is its own; order is that of the first failure.
#include "run/root_causes.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

CheckResult Failure(std::string id, const std::string& call = {}, const std::string& problem = {},
                    Outcome outcome = Outcome::kFail) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = "message of " + result.id;
  if (!call.empty()) result.details[kFailingCallKey] = call;
  if (!problem.empty()) result.details[kProblemKey] = problem;
  return result;
}

TEST(RootCausesTest, EqualCallAndProblemFormOneCauseWithEveryCheck) {
  const std::vector<RootCause> causes = GroupRootCauses({
      Failure("runtime.a", "create_stream", "out-parameter never written"),
      Failure("runtime.b", "host_callback", "returned false"),
      Failure("runtime.c", "create_stream", "out-parameter never written", Outcome::kCrash),
      Failure("runtime.d", "create_stream", "out-parameter never written", Outcome::kTimeout),
  });
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0].call, "create_stream");
  EXPECT_EQ(causes[0].problem, "out-parameter never written");
  EXPECT_EQ(causes[0].message, "message of runtime.a");
  EXPECT_EQ(causes[0].checks, (std::vector<std::string>{"runtime.a", "runtime.c", "runtime.d"}));
  EXPECT_EQ(causes[1].call, "host_callback");
  EXPECT_EQ(causes[1].checks, (std::vector<std::string>{"runtime.b"}));
}

TEST(RootCausesTest, SameCallDifferentProblemAreTwoCauses) {
  EXPECT_EQ(GroupRootCauses({Failure("a", "memcpy_htod", "wrong bytes written"),
                             Failure("b", "memcpy_htod", "late")})
                .size(),
            2u);
}

TEST(RootCausesTest, AFailureWithoutBothKeysIsItsOwnCause) {
  const std::vector<RootCause> causes = GroupRootCauses({
      Failure("a"),
      Failure("b"),
      Failure("c", "create_event", ""),
      Failure("d", "create_event", ""),
  });
  ASSERT_EQ(causes.size(), 4u);
  EXPECT_EQ(causes[0].call, "");
  EXPECT_EQ(causes[0].message, "message of a");
  EXPECT_EQ(causes[2].call, "create_event");  // kept for the reader, but not grouped
}

TEST(RootCausesTest, OnlyFailuresCrashesAndTimeoutsCount) {
  std::vector<CheckResult> results;
  for (Outcome outcome : {Outcome::kPass, Outcome::kWarning, Outcome::kSkipped, Outcome::kWaived,
                          Outcome::kNotSupported, Outcome::kUnexpectedPass}) {
    results.push_back(Failure("x", "create_stream", "never written", outcome));
  }
  EXPECT_TRUE(GroupRootCauses(results).empty());
}

}  // namespace
}  // namespace conformance
