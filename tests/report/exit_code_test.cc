// Exit codes: 3 beats 1 beats 0; waived and warning results do not break conformance.
#include "run/exit_code.h"

#include <gtest/gtest.h>

#include "run/run_report.h"

namespace conformance {
namespace {

std::vector<CheckResult> Results(const std::vector<std::pair<std::string, Outcome>>& list) {
  std::vector<CheckResult> results;
  for (const auto& [id, outcome] : list) {
    CheckResult result;
    result.id = id;
    result.outcome = outcome;
    results.push_back(result);
  }
  return results;
}

RunReport Report(std::vector<CheckResult> results) {
  RunReport report;
  report.results = std::move(results);
  return report;
}

TEST(ExitCodeTest, ValuesAreTheDocumentedOnes) {
  EXPECT_EQ(static_cast<int>(ExitCode::kConformant), 0);
  EXPECT_EQ(static_cast<int>(ExitCode::kNotConformant), 1);
  EXPECT_EQ(static_cast<int>(ExitCode::kUsageError), 2);
  EXPECT_EQ(static_cast<int>(ExitCode::kPluginNotLoaded), 3);
  EXPECT_EQ(static_cast<int>(ExitCode::kInternalError), 4);
  EXPECT_EQ(static_cast<int>(ExitCode::kNoDevice), 5);
}

// A plugin that reported 0 devices (model/no_device.h): device tiers selected are exit 5, never a
// pass; only device-free tiers selected is conformant (and says so); a failure still wins.
TEST(ExitCodeTest, NoDeviceIsExitFiveUnlessOnlyDeviceFreeTiersRan) {
  RunReport report = Report(Results({{"load.a", Outcome::kPass},
                                     {"load.se.device_count.positive", Outcome::kNotSupported},
                                     {"runtime.x", Outcome::kSkipped}}));
  report.results[0].tier = report.results[1].tier = "load";
  report.results[2].tier = "runtime";
  report.no_device = "get_device_count reported 0 devices";
  report.tiers = {"load", "runtime"};
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kNoDevice);
  EXPECT_EQ(report.DeviceTiersNotRun(), std::vector<std::string>{"runtime"});
  EXPECT_NE(report.NotConformantReason().find("reported 0 devices"), std::string::npos);
  EXPECT_FALSE(report.ConformantWithoutDevice());

  report.tiers = {"load"};
  report.results.pop_back();
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kConformant);
  EXPECT_TRUE(report.ConformantWithoutDevice());

  report.tiers = {"load", "runtime"};
  report.results.push_back(report.results[0]);
  report.results.back().outcome = Outcome::kFail;
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kNotConformant);
}

TEST(ExitCodeTest, ConformantWhenNothingBreaksConformance) {
  EXPECT_EQ(VerdictExitCode(Report(Results({{"a", Outcome::kPass},
                                            {"b", Outcome::kWarning},
                                            {"c", Outcome::kNotSupported},
                                            {"d", Outcome::kWaived},
                                            {"e", Outcome::kSkipped}}))),
            ExitCode::kConformant);
}

TEST(ExitCodeTest, EachBreakingOutcomeMakesItNotConformant) {
  for (Outcome outcome :
       {Outcome::kFail, Outcome::kCrash, Outcome::kTimeout, Outcome::kUnexpectedPass}) {
    EXPECT_EQ(VerdictExitCode(Report(Results({{"a", Outcome::kPass}, {"runtime.x", outcome}}))),
              ExitCode::kNotConformant)
        << ToString(outcome);
  }
}

TEST(ExitCodeTest, LibraryLoadFailureIsExitThree) {
  EXPECT_EQ(VerdictExitCode(Report(Results(
                {{"runtime.x", Outcome::kFail}, {"load.library.dlopen", Outcome::kCrash}}))),
            ExitCode::kPluginNotLoaded);
  EXPECT_TRUE(PluginNotLoaded(Results({{"load.library.dlopen", Outcome::kFail}})));
}

TEST(ExitCodeTest, OtherLoadChecksAndWaivedLibraryChecksAreNotExitThree) {
  EXPECT_EQ(VerdictExitCode(Report(Results({{"load.se.platform.name_regex", Outcome::kFail}}))),
            ExitCode::kNotConformant);
  EXPECT_EQ(VerdictExitCode(Report(Results({{"load.libraryx", Outcome::kFail}}))),
            ExitCode::kNotConformant);
  EXPECT_EQ(VerdictExitCode(Report(Results({{"load.library.dlopen", Outcome::kWaived}}))),
            ExitCode::kConformant);
  EXPECT_EQ(VerdictExitCode(Report(Results({{"load.library.dlopen", Outcome::kWarning}}))),
            ExitCode::kConformant);
}

TEST(RunReportTest, CountsEveryOutcomeAndConformance) {
  RunReport report;
  report.results = Results({{"a", Outcome::kPass}, {"b", Outcome::kPass}, {"c", Outcome::kWaived}});
  const auto counts = report.Counts();
  EXPECT_EQ(counts.size(), kAllOutcomes.size());
  EXPECT_EQ(counts.at(Outcome::kPass), 2);
  EXPECT_EQ(counts.at(Outcome::kWaived), 1);
  EXPECT_EQ(counts.at(Outcome::kFail), 0);
  EXPECT_TRUE(report.Conformant());
  report.results.push_back(Results({{"d", Outcome::kUnexpectedPass}})[0]);
  EXPECT_FALSE(report.Conformant());
}

TEST(ExitCodeTest, AnEmptyRunIsNeverConformant) {
  EXPECT_EQ(VerdictExitCode(RunReport{}), ExitCode::kNotConformant);
  EXPECT_EQ(RunReport{}.NotConformantReason(), "no check ran");
}

TEST(ExitCodeTest, ALoadFailureSeenOnlyInAPrerequisiteIsExitThree) {
  RunReport report = Report(Results({{"runtime.x", Outcome::kSkipped}}));
  report.load_failure = "load.library.dlopen: no such file";
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kPluginNotLoaded);
  EXPECT_FALSE(report.PluginLoaded());
}

TEST(RunReportTest, EverySelectedTierNeedsAPass) {
  std::vector<CheckResult> results = Results({{"load.a", Outcome::kPass},
                                              {"runtime.b", Outcome::kSkipped},
                                              {"runtime.c", Outcome::kNotSupported}});
  results[0].tier = "load";
  results[1].tier = results[2].tier = "runtime";
  RunReport report = Report(results);
  report.tiers = {"load", "runtime"};
  EXPECT_FALSE(report.Conformant());
  EXPECT_EQ(report.TiersWithoutPass(), (std::vector<std::string>{"runtime"}));
  EXPECT_NE(report.NotConformantReason().find("no check passed in tier runtime"),
            std::string::npos);
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kNotConformant);
  report.results[2].outcome = Outcome::kPass;
  EXPECT_TRUE(report.Conformant());
  EXPECT_EQ(VerdictExitCode(report), ExitCode::kConformant);
}

TEST(RunReportTest, AShardWithoutResultsForATierIsNotBlamedForIt) {
  RunReport report = Report(Results({{"load.a", Outcome::kPass}}));
  report.results[0].tier = "load";
  report.tiers = {"load", "runtime"};
  EXPECT_FALSE(report.Conformant());  // unsharded: runtime checked nothing
  report.shard = ShardSpec{1, 2};
  EXPECT_TRUE(report.Conformant());  // its runtime units ran on the other shard
}

TEST(RunReportTest, IsoUtcFormat) {
  const auto epoch_plus =
      std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  EXPECT_EQ(IsoUtc(epoch_plus), "2023-11-14T22:13:20Z");
}

// A plugin the mock core cannot host is judged in the installed TensorFlow only (zentf, ITEX):
// kernel cases that all ran TensorFlow's own CPU kernels verified nothing of the plugin.
RunReport JudgedInstalledOnly(int compared) {
  RunReport report = Report(Results({{"load.library.tensorflow_cxx", Outcome::kNotSupported}}));
  report.tiers = {"load", "kernels"};
  report.installed_tensorflow = nlohmann::json{
      {"decided_here", true}, {"verdict", "loads"}, {"kernels", {{"compared", compared}}}};
  return report;
}

TEST(ExitCodeTest, InstalledKernelCasesThatRanNoKernelOfThePluginVerifyNothing) {
  EXPECT_EQ(VerdictExitCode(JudgedInstalledOnly(0)), ExitCode::kNotConformant);
  EXPECT_NE(
      JudgedInstalledOnly(0).NotConformantReason().find("nothing was verified in tier kernels"),
      std::string::npos);
  EXPECT_EQ(VerdictExitCode(JudgedInstalledOnly(3)), ExitCode::kConformant);
  // Model graphs the plugin's optimizer rewrote into its own ops, whose kernels then ran, did
  // verify them (zentf's _Zen* ops); graphs that ran TensorFlow's kernels only did not.
  RunReport rewritten = JudgedInstalledOnly(0);
  (*rewritten.installed_tensorflow)["models"] = {{"agree", 5}, {"plugin_nodes_ran", 18}};
  EXPECT_EQ(VerdictExitCode(rewritten), ExitCode::kConformant);
  RunReport not_rewritten = JudgedInstalledOnly(0);
  (*not_rewritten.installed_tensorflow)["models"] = {{"agree", 5}, {"plugin_nodes_ran", 0}};
  EXPECT_EQ(VerdictExitCode(not_rewritten), ExitCode::kNotConformant);
  EXPECT_NE(not_rewritten.NotConformantReason().find("no model graph was rewritten"),
            std::string::npos);
  RunReport load_only = JudgedInstalledOnly(0);
  load_only.tiers = {"load"};  // --tier load: the installed TensorFlow's load verdict is all
  EXPECT_EQ(VerdictExitCode(load_only), ExitCode::kConformant);
}

}  // namespace
}  // namespace conformance
