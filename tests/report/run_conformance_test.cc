// Orchestration with an in-process fake runner: suite order, result filtering, waivers,
// header fields.
#include "run/run_conformance.h"

#include <algorithm>
#include <utility>

#include <gtest/gtest.h>

#include "fake_units.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

using testing::FakeUnit;
using testing::ReverseOrderRunner;

std::vector<TestUnit> Suite() {
  return {
      FakeUnit("load.library", "load", {"load.library.dlopen"}),
      FakeUnit("load.se", "load", {"load.se.a", "load.se.b"}, Outcome::kFail),
      FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod", "runtime.memcpy.dtoh"}),
      FakeUnit("stress.alloc", "stress", {"stress.alloc.many"}),
  };
}

RunPlan Plan() {
  RunPlan plan;
  plan.tool_version = "9.9.9";
  plan.settings.plugin_path = "/tmp/libplugin.so";
  plan.settings.profile = "tf2.15";
  plan.settings.seed = 1234;
  plan.jobs = 3;
  plan.isolation.timeout = std::chrono::milliseconds(500);
  plan.today = std::chrono::year_month_day(std::chrono::year(2026), std::chrono::November,
                                           std::chrono::day(21));
  return plan;
}

std::vector<std::string> Ids(const RunReport& report) {
  std::vector<std::string> ids;
  for (const CheckResult& result : report.results) ids.push_back(result.id);
  return ids;
}

TEST(RunConformanceTest, ResultsFollowSuiteOrderNotCompletionOrder) {
  ReverseOrderRunner runner;
  const RunReport report = RunConformance(Suite(), Plan(), runner.AsRunner());
  EXPECT_EQ(runner.ran, (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
  EXPECT_EQ(Ids(report), (std::vector<std::string>{"load.library.dlopen", "load.se.a", "load.se.b",
                                                   "runtime.memcpy.htod", "runtime.memcpy.dtoh"}));
  EXPECT_FALSE(report.Conformant());
  EXPECT_EQ(runner.jobs_seen, 3);
  EXPECT_EQ(runner.settings_seen.seed, 1234u);
  EXPECT_EQ(runner.settings_seen.profile, "tf2.15");
}

TEST(RunConformanceTest, HeaderFieldsComeFromThePlan) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.settings.co_loaded_plugins = {"/tmp/other.so"};
  plan.selection.shard = ShardSpec{0, 1};
  const RunReport report = RunConformance(Suite(), plan, runner.AsRunner());
  EXPECT_EQ(report.tool_version, "9.9.9");
  EXPECT_EQ(report.plugin_path, "/tmp/libplugin.so");
  EXPECT_EQ(report.co_loaded_plugins, (std::vector<std::string>{"/tmp/other.so"}));
  EXPECT_EQ(report.profile, "tf2.15");
  EXPECT_EQ(report.seed, 1234u);
  EXPECT_EQ(report.tiers, (std::vector<std::string>{"load", "runtime"}));
  EXPECT_EQ(report.filter, "*");
  ASSERT_TRUE(report.shard.has_value());
  EXPECT_EQ(report.shard->total, 1);
  EXPECT_EQ(report.jobs, 3);
  EXPECT_EQ(report.timeout_ms, 500);
  EXPECT_TRUE(report.isolation);
  EXPECT_EQ(report.started_at.size(), 20u);  // 2026-11-21T10:42:01Z
  EXPECT_EQ(report.started_at.back(), 'Z');
  EXPECT_FALSE(report.host.system.empty());
  EXPECT_GE(report.wall_seconds, 0.0);
  // The fake failures carry no TF_Code and dlopen passed: TensorFlow would load this plugin.
  ASSERT_TRUE(report.tensorflow_verdict.has_value());
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), true);
  EXPECT_FALSE(report.header_generation.has_value());
}

TEST(RunConformanceTest, OnlySelectedResultsAreReported) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.filter = CheckFilter("*.dtoh:load.se.b");
  const RunReport report = RunConformance(Suite(), plan, runner.AsRunner());
  // The whole load tier runs (load.library unreported): TensorFlow's verdict needs all of it.
  EXPECT_EQ(runner.ran, (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
  EXPECT_EQ(Ids(report), (std::vector<std::string>{"load.se.b", "runtime.memcpy.dtoh"}));
}

TEST(RunConformanceTest, AFailureOfACheckThatNamesNoConsequenceOnlyWarns) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.may_fail = [](std::string_view id) { return id != "load.se.b"; };
  const RunReport report = RunConformance(Suite(), plan, runner.AsRunner());
  EXPECT_EQ(report.results[1].outcome, Outcome::kFail);     // load.se.a may fail
  EXPECT_EQ(report.results[2].outcome, Outcome::kWarning);  // load.se.b names no consequence
  EXPECT_EQ(report.results[2].details.count("downgraded"), 1u);
}

TEST(RunConformanceTest, WaiversApplyAndUnmatchedWaiversWarn) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.waivers = {Waiver{"load.se.*", "vendor ticket 1", "", std::nullopt, "w.yaml:1:3", false},
                  Waiver{"runtime.memcpy.htod", "stale", "", std::nullopt, "w.yaml:3:3", false},
                  Waiver{"graph.*", "nothing", "", std::nullopt, "w.yaml:5:3", false}};
  std::vector<std::string> warnings;
  RunObserver observer;
  observer.on_warning = [&](const std::string& warning) { warnings.push_back(warning); };
  const RunReport report = RunConformance(Suite(), plan, runner.AsRunner(), observer);
  EXPECT_EQ(report.results[1].outcome, Outcome::kWaived);
  EXPECT_EQ(report.results[2].outcome, Outcome::kWaived);
  EXPECT_EQ(report.results[3].outcome, Outcome::kUnexpectedPass);
  EXPECT_FALSE(report.Conformant());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("graph.*"), std::string::npos);
  EXPECT_EQ(report.warnings, warnings);
}

TEST(RunConformanceTest, ObserverSeesStartAndEveryUnit) {
  ReverseOrderRunner runner;
  int starts = 0;
  std::vector<std::size_t> done;
  RunObserver observer;
  observer.on_start = [&](const RunReport& header) {
    ++starts;
    EXPECT_TRUE(header.results.empty());
    EXPECT_EQ(header.seed, 1234u);
  };
  observer.on_unit_done = [&](const TestUnit&, const std::vector<CheckResult>&, std::size_t n,
                              std::size_t total) {
    done.push_back(n);
    EXPECT_EQ(total, 3u);
  };
  RunConformance(Suite(), Plan(), runner.AsRunner(), observer);
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3}));
}

TEST(RunConformanceTest, BadTierIsAUsageError) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.tiers = {"kernals"};
  EXPECT_THROW(RunConformance(Suite(), plan, runner.AsRunner()), UsageError);
}

TEST(RunConformanceTest, RunnerThatForgetsAUnitIsAnInternalError) {
  RunPlan plan = Plan();
  const UnitsRunner forgetful = [](const std::vector<TestUnit>&, const RunSettings&,
                                   const IsolationOptions&, int, const UnitDone&) {};
  EXPECT_THROW(RunConformance(Suite(), plan, forgetful), std::logic_error);
}

// A unit whose first check fails with a TF_Code: TensorFlow refuses the plugin.
TestUnit RefusingUnit() {
  TestUnit unit = FakeUnit("load.modules", "load",
                           {"load.se.platform.name_regex", "load.se.create_stream_executor"});
  unit.prerequisites = {"load.library.dlopen"};
  unit.run = [](UnitContext& context) {
    CheckResult refused;
    refused.id = "load.se.platform.name_regex";
    refused.outcome = Outcome::kFail;
    refused.tf_code = 9;
    refused.message = "bad name";
    context.sink.Emit(refused);
    CheckResult created;
    created.id = "load.se.create_stream_executor";
    context.sink.Emit(created);
  };
  return unit;
}

std::vector<TestUnit> RefusedSuite() {
  TestUnit runtime = FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"});
  runtime.prerequisites = {"load.se.create_stream_executor"};
  TestUnit stress = FakeUnit("stress.alloc", "stress", {"stress.alloc.many"});
  return {FakeUnit("load.library", "load", {"load.library.dlopen"}), RefusingUnit(), runtime,
          stress};
}

TEST(RunConformanceTest, RuntimeAndStressAreSkippedWhenTensorFlowRefusesThePlugin) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.tiers = {"load", "runtime", "stress"};
  const RunReport report = RunConformance(RefusedSuite(), plan, runner.AsRunner());
  EXPECT_EQ(runner.ran, (std::vector<std::string>{"load.library", "load.modules"}));
  ASSERT_EQ(report.results.size(), 5u);
  for (std::size_t i = 3; i < 5; ++i) {
    EXPECT_EQ(report.results[i].outcome, Outcome::kSkipped) << report.results[i].id;
    EXPECT_EQ(report.results[i].message,
              "not run: TensorFlow refuses the plugin (TF_Code 9): bad name (--force-runtime "
              "runs it anyway)");
  }
}

TEST(RunConformanceTest, ForceRuntimeRunsThemAnyway) {
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.tiers = {"load", "runtime", "stress"};
  plan.force_runtime = true;
  const RunReport report = RunConformance(RefusedSuite(), plan, runner.AsRunner());
  EXPECT_EQ(runner.ran.size(), 4u);
  EXPECT_EQ(report.results[3].outcome, Outcome::kPass);
}

TEST(RunConformanceTest, ARuntimeTierWhoseUnitsAllDiedIsNotConformant) {
  // Issue 7 §4: every selected runtime check skipped because its unit crashed.
  TestUnit crashing = FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"});
  crashing.run = [](UnitContext& context) {
    CheckResult crash;
    crash.id = "runtime.memcpy";  // the unit's name: no check was in flight
    crash.outcome = Outcome::kCrash;
    context.sink.Emit(crash);
    CheckResult skipped;
    skipped.id = "runtime.memcpy.htod";
    skipped.outcome = Outcome::kSkipped;
    context.sink.Emit(skipped);
  };
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.filter = CheckFilter("runtime.memcpy.*");
  const RunReport report = RunConformance({crashing}, plan, runner.AsRunner());
  ASSERT_EQ(report.results.size(), 1u);  // filed under the catalogued check, which the filter sees
  EXPECT_EQ(report.results[0].id, "runtime.memcpy.htod");
  EXPECT_EQ(report.results[0].outcome, Outcome::kCrash);
  EXPECT_FALSE(report.Conformant());
}

TEST(RunConformanceTest, ALoadFailureInAPrerequisiteIsRemembered) {
  TestUnit runtime = FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"});
  runtime.prerequisites = {"load.library.dlopen"};
  ReverseOrderRunner runner;
  RunPlan plan = Plan();
  plan.selection.tiers = {"runtime"};
  const RunReport report = RunConformance(
      {FakeUnit("load.library", "load", {"load.library.dlopen"}, Outcome::kFail), runtime}, plan,
      runner.AsRunner());
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_EQ(report.results[0].outcome, Outcome::kSkipped);
  EXPECT_EQ(report.load_failure, "load.library.dlopen: fake load.library.dlopen");
  EXPECT_FALSE(report.PluginLoaded());
}

// A CPU kernel plugin (no SE_InitPlugin, TF_InitKernel ran): its kernels run on the host device,
// the StreamExecutor tiers are not applicable and no part of the verdict.
std::vector<TestUnit> CpuKernelPluginSuite(Outcome se_init, Outcome npd_init) {
  std::vector<TestUnit> suite = {
      FakeUnit("load.se", "load", {"load.se.init", "load.se.create_stream_executor"}, se_init),
      FakeUnit("load.npd", "load", {"load.npd.init"}, npd_init),
      FakeUnit("load.kernels", "load", {"load.kernels.init"}),
      FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}),
      FakeUnit("kernel.Relu", "kernels", {"kernel.Relu.float.random"}),
      FakeUnit("model.mlp", "models", {"model.mlp.float"})};
  for (std::size_t i = 3; i < suite.size(); ++i)
    suite[i].prerequisites = {"load.se.create_stream_executor"};
  return suite;
}

TEST(RunConformanceTest, ACpuKernelPluginRunsItsKernelsAndNoStreamExecutorTier) {
  ReverseOrderRunner runner;
  const RunReport report = RunConformance(
      CpuKernelPluginSuite(Outcome::kSkipped, Outcome::kNotSupported), Plan(), runner.AsRunner());
  EXPECT_EQ(std::count(runner.ran.begin(), runner.ran.end(), "kernel.Relu"), 1);
  EXPECT_EQ(std::count(runner.ran.begin(), runner.ran.end(), "runtime.memcpy"), 0);
  for (const CheckResult& result : report.results) {
    if (result.id == "kernel.Relu.float.random") {
      EXPECT_EQ(result.outcome, Outcome::kPass);
    }
    if (result.id == "runtime.memcpy.htod" || result.id == "model.mlp.float") {
      EXPECT_EQ(result.outcome, Outcome::kNotSupported) << result.id;
      EXPECT_EQ(result.message.rfind(kNoStreamExecutorModule, 0), 0u) << result.message;
    }
  }
  EXPECT_TRUE(report.Conformant()) << report.NotConformantReason();
}

// A device plugin whose SE_InitPlugin failed, and a NextPluggableDevice plugin, are no CPU
// kernel plugins: their dependents stay blocked by the prerequisite, as before.
TEST(RunConformanceTest, OnlyAPluginWithoutAnyDeviceModuleIsACpuKernelPlugin) {
  for (const auto& [se_init, npd_init] : {std::pair{Outcome::kFail, Outcome::kNotSupported},
                                          std::pair{Outcome::kSkipped, Outcome::kPass}}) {
    ReverseOrderRunner runner;
    const RunReport report =
        RunConformance(CpuKernelPluginSuite(se_init, npd_init), Plan(), runner.AsRunner());
    EXPECT_EQ(std::count(runner.ran.begin(), runner.ran.end(), "kernel.Relu"), 0);
    for (const CheckResult& result : report.results) {
      if (result.id.starts_with("load.")) continue;
      EXPECT_EQ(result.outcome, Outcome::kSkipped) << result.id;
      EXPECT_NE(result.message.find("prerequisite load.se.create_stream_executor"),
                std::string::npos)
          << result.message;
    }
  }
}

}  // namespace
}  // namespace conformance
