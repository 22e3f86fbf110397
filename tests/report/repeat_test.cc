// --repeat N at the run layer, with fake units: each unit runs N times; a check whose outcome
// varies becomes `flaky` with every run's outcome, which breaks conformance unless a waiver
// marked `flaky: true` expects it; a flake waiver excuses nothing else.
#include <gtest/gtest.h>

#include <memory>

#include "fake_units.h"
#include "run/repeated_results.h"
#include "run/run_conformance.h"
#include "run/waivers.h"

namespace conformance {
namespace {

using testing::FakeUnit;
using testing::ReverseOrderRunner;

// A unit whose check `id` passes on odd-numbered runs and fails on even ones (its counter
// lives with the test, as a plugin's would in a file), and whose `steady` check always passes.
TestUnit AlternatingUnit(std::shared_ptr<int> runs) {
  TestUnit unit;
  unit.name = "runtime.flaky";
  unit.tier = "runtime";
  unit.check_ids = {"runtime.flaky.sometimes", "runtime.flaky.steady"};
  unit.run = [runs](UnitContext& context) {
    ++*runs;
    CheckResult varying;
    varying.id = "runtime.flaky.sometimes";
    varying.outcome = *runs % 2 == 0 ? Outcome::kFail : Outcome::kPass;
    if (varying.outcome == Outcome::kFail) varying.message = "lost a race";
    context.sink.Emit(varying);
    CheckResult steady;
    steady.id = "runtime.flaky.steady";
    context.sink.Emit(steady);
  };
  return unit;
}

RunPlan Plan(int repeat) {
  RunPlan plan;
  plan.settings.plugin_path = "/tmp/libplugin.so";
  plan.repeat = repeat;
  plan.today = std::chrono::year_month_day(std::chrono::year(2026), std::chrono::November,
                                           std::chrono::day(21));
  return plan;
}

const CheckResult& Find(const RunReport& report, const std::string& id) {
  for (const CheckResult& result : report.results) {
    if (result.id == id) return result;
  }
  throw std::runtime_error("no result " + id);
}

TEST(Repeat, EveryUnitRunsNTimesAndAVaryingOutcomeIsFlaky) {
  auto runs = std::make_shared<int>(0);
  ReverseOrderRunner runner;
  const std::vector<TestUnit> suite = {FakeUnit("load.library", "load", {"load.library.dlopen"}),
                                       AlternatingUnit(runs)};
  const RunReport report = RunConformance(suite, Plan(3), runner.AsRunner());
  EXPECT_EQ(*runs, 3);
  EXPECT_EQ(report.repeat, 3);
  const CheckResult& flaky = Find(report, "runtime.flaky.sometimes");
  EXPECT_EQ(flaky.outcome, Outcome::kFlaky);
  EXPECT_EQ(flaky.details.at("outcomes"), "pass,fail,pass");
  EXPECT_EQ(flaky.message, "outcome varied over 3 runs (pass,fail,pass); fail: lost a race");
  const CheckResult& steady = Find(report, "runtime.flaky.steady");
  EXPECT_EQ(steady.outcome, Outcome::kPass);
  EXPECT_EQ(steady.details.at("runs"), "3");
  EXPECT_FALSE(report.Conformant());
  EXPECT_EQ(report.Counts().at(Outcome::kFlaky), 1);
}

TEST(Repeat, OnceIsNeverFlaky) {
  auto runs = std::make_shared<int>(0);
  ReverseOrderRunner runner;
  const RunReport report = RunConformance({AlternatingUnit(runs)}, Plan(1), runner.AsRunner());
  EXPECT_EQ(*runs, 1);
  EXPECT_EQ(Find(report, "runtime.flaky.sometimes").outcome, Outcome::kPass);
  EXPECT_EQ(Find(report, "runtime.flaky.sometimes").details.count("runs"), 0u);
}

TEST(Repeat, AWaiverMarkedFlakyExcusesTheFlakeOnly) {
  auto runs = std::make_shared<int>(0);
  ReverseOrderRunner runner;
  RunPlan plan = Plan(2);
  plan.waivers =
      ParseWaivers("- id: runtime.*\n  reason: known race, ticket 9\n  flaky: true\n", "w.yaml");
  const RunReport report = RunConformance(
      {AlternatingUnit(runs),
       FakeUnit("runtime.broken", "runtime", {"runtime.broken.always"}, Outcome::kFail)},
      plan, runner.AsRunner());
  const CheckResult& flaky = Find(report, "runtime.flaky.sometimes");
  EXPECT_EQ(flaky.outcome, Outcome::kWaived);
  EXPECT_EQ(flaky.waiver_reason, "known race, ticket 9");
  EXPECT_EQ(flaky.details.at("waived_as"), "flaky");
  // Always failing is not flaky; always passing is not a stale waiver.
  EXPECT_EQ(Find(report, "runtime.broken.always").outcome, Outcome::kFail);
  EXPECT_EQ(Find(report, "runtime.flaky.steady").outcome, Outcome::kPass);
}

TEST(Repeat, AnOrdinaryWaiverDoesNotExcuseAFlake) {
  auto runs = std::make_shared<int>(0);
  ReverseOrderRunner runner;
  RunPlan plan = Plan(2);
  plan.waivers = ParseWaivers("- id: runtime.flaky.sometimes\n  reason: fails\n", "w.yaml");
  const RunReport report = RunConformance({AlternatingUnit(runs)}, plan, runner.AsRunner());
  EXPECT_EQ(Find(report, "runtime.flaky.sometimes").outcome, Outcome::kFlaky);
}

TEST(Repeat, ACheckMissingFromARunCountsAsAbsent) {
  CheckResult pass;
  pass.id = "a";
  std::vector<std::vector<CheckResult>> runs = {{pass}, {}};
  const auto merged = MergeRepeatedRuns(std::move(runs));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].outcome, Outcome::kFlaky);
  EXPECT_EQ(merged[0].details.at("outcomes"), "pass,absent");
}

TEST(Waivers, FlakyMustBeABoolean) {
  EXPECT_TRUE(ParseWaivers("- id: a\n  reason: r\n  flaky: true\n", "w.yaml").front().flaky);
  EXPECT_FALSE(ParseWaivers("- id: a\n  reason: r\n", "w.yaml").front().flaky);
  try {
    ParseWaivers("- id: a\n  reason: r\n  flaky: sometimes\n", "w.yaml");
    FAIL() << "accepted flaky: sometimes";
  } catch (const WaiverFileError& error) {
    EXPECT_STREQ(error.what(),
                 "w.yaml:3:10: waiver entry 1: 'flaky' must be true or false, got 'sometimes'");
  }
}

}  // namespace
}  // namespace conformance
