// The result model the isolation layer carries across the pipe.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/check_result.h"
#include "model/outcome.h"

namespace conformance {
namespace {

constexpr Outcome kAllOutcomes[] = {
    Outcome::kPass,    Outcome::kFail,    Outcome::kWarning, Outcome::kNotSupported,
    Outcome::kCrash,   Outcome::kTimeout, Outcome::kWaived,  Outcome::kUnexpectedPass,
    Outcome::kSkipped, Outcome::kFlaky};

TEST(Outcome, NamesRoundTrip) {
  for (Outcome outcome : kAllOutcomes) {
    EXPECT_EQ(OutcomeFromString(ToString(outcome)), outcome) << ToString(outcome);
  }
  EXPECT_EQ(ToString(Outcome::kNotSupported), "not_supported");
  EXPECT_EQ(ToString(Outcome::kUnexpectedPass), "unexpected_pass");
  EXPECT_EQ(ToString(Outcome::kFlaky), "flaky");
  EXPECT_FALSE(OutcomeFromString("PASS").has_value());
}

TEST(Outcome, ConformanceRule) {
  for (Outcome outcome : kAllOutcomes) {
    const bool breaks = outcome == Outcome::kFail || outcome == Outcome::kCrash ||
                        outcome == Outcome::kTimeout || outcome == Outcome::kUnexpectedPass ||
                        outcome == Outcome::kFlaky;
    EXPECT_EQ(BreaksConformance(outcome), breaks) << ToString(outcome);
  }
}

TEST(Origin, NamesRoundTrip) {
  EXPECT_EQ(ToString(Origin::kTensorFlow), "tensorflow");
  EXPECT_EQ(ToString(Origin::kStricter), "stricter");
  EXPECT_EQ(OriginFromString("stricter"), Origin::kStricter);
  EXPECT_FALSE(OriginFromString("other").has_value());
}

TEST(CheckResultJson, SnakeCaseKeysAndEmptyOptionalsLeftOut) {
  CheckResult result;
  result.id = "load.se.init";
  result.outcome = Outcome::kNotSupported;
  const nlohmann::json json = result;
  EXPECT_EQ(json.at("outcome"), "not_supported");
  EXPECT_FALSE(json.contains("tf_code"));
  EXPECT_FALSE(json.contains("crash"));
  EXPECT_TRUE(json.contains("waiver_reason"));
}

TEST(CheckResultJson, RoundTripsEveryField) {
  CheckResult result;
  result.id = "runtime.memcpy.htod.unaligned";
  result.outcome = Outcome::kCrash;
  result.message = "SIGSEGV (Segmentation fault) in SP_StreamExecutor.memcpy_htod";
  result.tf_code = 9;
  result.details = {{"seed", "42"}};
  result.seconds = 1.5;
  result.crash = CrashInfo{"SIGSEGV", "SP_StreamExecutor.memcpy_htod", {"#0 a", "#1 b"}};
  result.waiver_reason = "known";
  const nlohmann::json json = result;
  EXPECT_EQ(json.at("crash").at("last_call"), "SP_StreamExecutor.memcpy_htod");
  const auto back = json.get<CheckResult>();
  EXPECT_EQ(back.id, result.id);
  EXPECT_EQ(back.outcome, result.outcome);
  EXPECT_EQ(back.message, result.message);
  EXPECT_EQ(back.tf_code, result.tf_code);
  EXPECT_EQ(back.details, result.details);
  EXPECT_DOUBLE_EQ(back.seconds, result.seconds);
  ASSERT_TRUE(back.crash.has_value());
  EXPECT_EQ(back.crash->signal, "SIGSEGV");
  EXPECT_EQ(back.crash->backtrace, result.crash->backtrace);
  EXPECT_EQ(back.waiver_reason, "known");
}

TEST(CheckResultJson, UnknownOutcomeIsRejected) {
  const auto json = nlohmann::json::parse(R"({"id":"a","outcome":"maybe"})");
  EXPECT_THROW(json.get<CheckResult>(), std::exception);
}

}  // namespace
}  // namespace conformance
