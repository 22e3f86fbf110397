// Root causes are per kernel (issue 29, item 9): a plugin whose Relu6 and Elu both compute wrong
// values (each drops NaN; the two_wrong_kernels variant of kernel_plugin.cc) has two defects, so
// the report shows two root causes, each naming its kernel; a root-cause waiver naming one
// kernel leaves the other failing, one without a kernel waives the cause for every kernel; and
// the waivers file --write-waivers writes makes the same run conformant.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

std::string Shell(const std::string& text) { return "'" + text + "'"; }

struct TierRun {
  int exit_code = -1;
  nlohmann::json report;
  std::string console;
};

class TwoWrongKernels : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("kernel_root_causes_" + std::to_string(getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The kernel tier on Relu6 and Elu, compared with the reference plugin's kernels.
  TierRun RunTier(const std::string& arguments = "") {
    const std::string json = (dir_ / "report.json").string();
    const std::string console = (dir_ / "console.txt").string();
    const std::string command =
        Shell(PLUGIN_CONFORMANCE) + " " +
        Shell(std::string(KERNEL_DEFECTS_DIR) + "/two_wrong_kernels.so") +
        " --tier kernels --filter 'kernel.Relu6.*:kernel.Elu.*' --seed 7 --json " + Shell(json) +
        " " + arguments + " > " + Shell(console) + " 2>&1";
    TierRun run;
    const int status = std::system(command.c_str());
    if (status != -1 && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
    std::ifstream report(json);
    if (report) run.report = nlohmann::json::parse(report);
    std::ifstream text(console);
    run.console.assign(std::istreambuf_iterator<char>(text), {});
    return run;
  }

  std::string WriteFile(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  fs::path dir_;
};

// The outcome of every result whose id starts with `prefix`.
std::set<std::string> OutcomesOf(const nlohmann::json& report, const std::string& prefix) {
  std::set<std::string> outcomes;
  for (const auto& result : report.at("results")) {
    if (result.at("id").get<std::string>().starts_with(prefix))
      outcomes.insert(result.at("outcome"));
  }
  return outcomes;
}

TEST_F(TwoWrongKernels, AreTwoRootCausesEachNamingItsKernel) {
  const TierRun run = RunTier();
  ASSERT_EQ(run.exit_code, 1) << run.console;
  const auto& causes = run.report.at("root_causes");
  ASSERT_EQ(causes.size(), 2u) << causes.dump(2);
  std::set<std::string> kernels;
  for (const auto& cause : causes) {
    EXPECT_EQ(cause.value("call", ""), "compute_func") << cause.dump(2);
    EXPECT_EQ(cause.value("problem", ""), "wrong values") << cause.dump(2);
    const std::string kernel = cause.value("kernel", "");
    kernels.insert(kernel);
    for (const auto& check : cause.at("checks")) {
      EXPECT_TRUE(check.get<std::string>().starts_with("kernel." + kernel + "."))
          << kernel << "'s root cause explains " << check;
    }
  }
  EXPECT_EQ(kernels, (std::set<std::string>{"Relu6", "Elu"}));
  EXPECT_NE(run.console.find("compute_func (Relu6): wrong values"), std::string::npos)
      << run.console;
  EXPECT_NE(run.console.find("compute_func (Elu): wrong values"), std::string::npos) << run.console;
}

TEST_F(TwoWrongKernels, RootCauseWaiverNamingOneKernelLeavesTheOtherFailing) {
  const std::string waivers = WriteFile("waivers.yaml",
                                        "- callback: compute_func\n"
                                        "  problem: wrong values\n"
                                        "  kernel: Relu6\n"
                                        "  reason: Relu6 drops NaN, ticket 1\n");
  const TierRun run = RunTier("--waivers " + Shell(waivers));
  ASSERT_EQ(run.exit_code, 1) << run.console;
  EXPECT_EQ(OutcomesOf(run.report, "kernel.Relu6.float.special_values"),
            (std::set<std::string>{"waived"}));
  EXPECT_EQ(OutcomesOf(run.report, "kernel.Elu.float.special_values"),
            (std::set<std::string>{"fail"}));
  const auto& causes = run.report.at("root_causes");
  ASSERT_EQ(causes.size(), 1u) << causes.dump(2);
  EXPECT_EQ(causes.at(0).value("kernel", ""), "Elu");
  EXPECT_TRUE(run.report.at("warnings").empty()) << run.report.at("warnings").dump(2);
}

TEST_F(TwoWrongKernels, RootCauseWaiverWithoutKernelWaivesEveryKernelsCause) {
  const std::string waivers = WriteFile("waivers.yaml",
                                        "- callback: compute_func\n"
                                        "  problem: wrong values\n"
                                        "  reason: NaN handling, ticket 2\n");
  const TierRun run = RunTier("--waivers " + Shell(waivers));
  EXPECT_EQ(run.exit_code, 0) << run.console;
  EXPECT_EQ(OutcomesOf(run.report, "kernel.Relu6.float.special_values"),
            (std::set<std::string>{"waived"}));
  EXPECT_EQ(OutcomesOf(run.report, "kernel.Elu.float.special_values"),
            (std::set<std::string>{"waived"}));
}

TEST_F(TwoWrongKernels, WrittenWaiversMakeTheSameRunConformant) {
  const std::string written = (dir_ / "written.yaml").string();
  const TierRun first = RunTier("--write-waivers " + Shell(written));
  ASSERT_EQ(first.exit_code, 1) << first.console;
  const TierRun again = RunTier("--waivers " + Shell(written));
  EXPECT_EQ(again.exit_code, 0) << again.console;
  EXPECT_TRUE(again.report.at("root_causes").empty()) << again.report.at("root_causes").dump(2);
  EXPECT_TRUE(again.report.at("warnings").empty()) << again.report.at("warnings").dump(2);
}

}  // namespace
