// A plugin without a device (get_device_count 0): what needs no device is judged, every report
// says the device tiers did not run and why, and the exit code never makes that a pass
// (model/no_device.h, run/exit_code.h).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/tool_run.h"

namespace {

using conformance::test_support::Result;
using conformance::test_support::RunConformance;
using conformance::test_support::Shell;
using conformance::test_support::ToolRun;

const std::set<std::string> kDeviceTiers = {"runtime", "kernels", "models", "stress"};

// A scratch folder for one run's reports, removed with the test's scope.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("no_device_test_" + name + "_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string ReadFile(const std::filesystem::path& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

bool TierPassed(const ToolRun& run, const std::string& tier) {
  for (const auto& result : run.report.at("results")) {
    if (result.value("tier", "") == tier && result.value("outcome", "") == "pass") return true;
  }
  return false;
}

TEST(NoDevice, DeviceTiersSelectedExitFiveAndEveryReportSaysWhy) {
  const ScratchDir scratch("default");
  const auto& dir = scratch.path();
  const ToolRun run = RunConformance(PLUGIN_CONFORMANCE, NO_DEVICE_PLUGIN,
                                     "--html " + Shell((dir / "report.html").string()), dir, "",
                                     /*junit=*/true);
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 5) << run.output;
  EXPECT_FALSE(run.report.value("conformant", true));
  EXPECT_TRUE(run.report.value("plugin_loaded", false));
  EXPECT_EQ(run.report.at("counts").value("fail", -1), 0) << run.output;
  EXPECT_EQ(run.report.at("counts").value("crash", -1), 0) << run.output;

  const auto* count = Result(run, "load.se.device_count.positive");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->value("outcome", ""), "not_supported") << count->dump(2);
  EXPECT_NE(count->value("message", "").find("0 devices"), std::string::npos);

  // Judged without a device: the load tier (kernel registrations included), graph, profiler.
  for (const char* tier : {"load", "graph", "profiler"}) EXPECT_TRUE(TierPassed(run, tier)) << tier;
  EXPECT_EQ(Result(run, "load.kernels.init")->value("outcome", ""), "pass");
  // Every device tier selected: listed, nothing of it passed, each check skipped for want of a
  // device (not a vacuous pass).
  ASSERT_TRUE(run.report.contains("no_device")) << run.report.dump(2).substr(0, 2000);
  const auto& not_run = run.report.at("no_device").at("device_tiers_not_run");
  EXPECT_FALSE(not_run.empty());
  for (const auto& tier : not_run) {
    EXPECT_TRUE(kDeviceTiers.contains(tier.get<std::string>())) << tier;
    EXPECT_FALSE(TierPassed(run, tier.get<std::string>())) << tier;
  }
  for (const auto& result : run.report.at("results")) {
    if (!kDeviceTiers.contains(result.value("tier", ""))) continue;
    EXPECT_EQ(result.value("outcome", ""), "skipped") << result.dump(2);
    EXPECT_NE(result.value("message", "").find("no device"), std::string::npos) << result.dump(2);
  }
  EXPECT_NE(run.report.value("not_conformant_reason", "").find("reported 0 devices"),
            std::string::npos);

  // Console: the why and what to do first, the distinct verdict last.
  EXPECT_NE(run.output.find("No device: get_device_count reported 0 devices"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("--tier load,graph,profiler"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("NO DEVICE (not conformant, exit 5)"), std::string::npos) << run.output;
  EXPECT_NE(run.junit.find("name=\"no_device\""), std::string::npos);
  EXPECT_NE(run.junit.find("name=\"device_tiers_not_run\""), std::string::npos);
  const std::string html = ReadFile(dir / "report.html");
  EXPECT_NE(html.find("NO DEVICE: DEVICE TIERS NOT RUN"), std::string::npos);
  EXPECT_NE(html.find("id=\"no-device\""), std::string::npos);
}

TEST(NoDevice, TheDeviceFreeTiersGateWithExitZeroButNeverPlainConformant) {
  const ScratchDir scratch("device_free");
  const ToolRun run = RunConformance(PLUGIN_CONFORMANCE, NO_DEVICE_PLUGIN,
                                     "--tier load,graph,profiler", scratch.path(), "",
                                     /*junit=*/true);
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(run.report.value("conformant", false));
  ASSERT_TRUE(run.report.contains("no_device"));
  EXPECT_TRUE(run.report.at("no_device").at("device_tiers_not_run").empty());
  EXPECT_NE(run.output.find("CONFORMANT IN THE DEVICE-FREE TIERS ONLY"), std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("\nCONFORMANT\n"), std::string::npos) << run.output;
  EXPECT_NE(run.junit.find("name=\"no_device\""), std::string::npos);
}

TEST(NoDevice, ADeviceTierAloneIsNoVacuousPass) {
  const ScratchDir scratch("runtime");
  const ToolRun run =
      RunConformance(PLUGIN_CONFORMANCE, NO_DEVICE_PLUGIN, "--tier runtime", scratch.path());
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 5) << run.output;
  EXPECT_FALSE(run.report.value("conformant", true));
  EXPECT_EQ(run.report.at("no_device").at("device_tiers_not_run"),
            nlohmann::json::array({"runtime"}));
}

TEST(NoDevice, APluginWithDevicesHasNoNoDeviceReport) {
  const ScratchDir scratch("device");
  const ToolRun run =
      RunConformance(PLUGIN_CONFORMANCE, DEVICE_PLUGIN, "--tier load", scratch.path());
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_FALSE(run.report.contains("no_device"));
}

}  // namespace
