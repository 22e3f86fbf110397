// CPU kernel plugins (cpu_plugin.c: TF_InitKernel and TF_InitGraph for device type CPU, no
// SE_InitPlugin) run the way a vendor runs them: the legal variant is conformant with kernels
// verified on the mock core's host device and its optimizer driven by the graph tier; every
// defect is caught by exactly one root cause that names the callback at fault.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

std::string Shell(const std::string& text) { return "'" + text + "'"; }

struct Outcome {
  int exit_code = -1;
  nlohmann::json report;
  std::string console;  // stdout and stderr
};

Outcome RunPlugin(const std::string& plugin, const std::string& variant,
                  const std::string& arguments) {
  const std::string json =
      (std::filesystem::temp_directory_path() /
       ("cpu_kernel_plugin_" + variant + "_" + std::to_string(getpid()) + ".json"))
          .string();
  const std::string command = "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(REFERENCE_PLUGIN) +
                              " " + Shell(PLUGIN_CONFORMANCE) + " " + Shell(plugin) + " " +
                              arguments + " --json " + Shell(json) + " > " + Shell(json + ".txt") +
                              " 2>&1";
  Outcome run;
  const int status = std::system(command.c_str());
  if (status != -1 && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (std::ifstream in(json); in) run.report = nlohmann::json::parse(in);
  if (std::ifstream in(json + ".txt"); in)
    run.console.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::filesystem::remove(json);
  std::filesystem::remove(json + ".txt");
  return run;
}

Outcome RunConformance(const std::string& variant, const std::string& arguments = "") {
  return RunPlugin(std::string(CPU_KERNEL_PLUGINS_DIR) + "/" + variant + ".so", variant, arguments);
}

int Count(const nlohmann::json& report, const std::string& tier, const std::string& outcome) {
  int n = 0;
  for (const auto& result : report.at("results"))
    n += result.at("tier") == tier && result.at("outcome") == outcome;
  return n;
}

const nlohmann::json* Find(const nlohmann::json& report, const std::string& id) {
  for (const auto& result : report.at("results"))
    if (result.at("id") == id) return &result;
  return nullptr;
}

TEST(CpuKernelPlugin, TheLegalPluginIsConformantWithItsKernelsAndOptimizerVerified) {
  const Outcome run = RunConformance("legal");
  ASSERT_TRUE(run.report.contains("results"));
  EXPECT_EQ(run.exit_code, 0) << run.report.value("not_conformant_reason", "");
  EXPECT_TRUE(run.report.at("root_causes").empty()) << run.report.at("root_causes").dump(2);
  EXPECT_GT(Count(run.report, "kernels", "pass"), 10);
  EXPECT_EQ(Count(run.report, "kernels", "fail"), 0);
  EXPECT_GT(Count(run.report, "graph", "pass"), 0);
  EXPECT_EQ(Count(run.report, "graph", "fail"), 0);
  // Every hygiene check that makes sense on a host device ran and passed on Relu.
  for (const char* property : {"inputs_untouched", "leaks", "writes_in_bounds", "deterministic",
                               "reused_buffers", "concurrent_computes", "injected_faults"}) {
    const nlohmann::json* result = Find(run.report, std::string("kernel.Relu.") + property);
    ASSERT_NE(result, nullptr) << property;
    EXPECT_EQ(result->at("outcome"), "pass") << property << ": " << result->value("message", "");
  }
  // Stream ordering needs a device stream, which TensorFlow's CPU device does not have.
  for (const char* property : {"late_inputs", "work_after_compute"}) {
    const nlohmann::json* result = Find(run.report, std::string("kernel.AddV2.") + property);
    ASSERT_NE(result, nullptr) << property;
    EXPECT_EQ(result->at("outcome"), "not_supported") << property;
    EXPECT_NE(result->value("message", "").find("no device stream"), std::string::npos);
  }
  // The StreamExecutor tiers do not apply (no StreamExecutor module) and are no part of the
  // verdict; the models tier has not been ported to the host device and says so.
  int not_applicable = 0;
  for (const auto& result : run.report.at("results")) {
    const std::string tier = result.at("tier");
    if (tier != "runtime" && tier != "models") continue;
    ++not_applicable;
    EXPECT_EQ(result.at("outcome"), "not_supported") << result.at("id");
    EXPECT_NE(result.value("message", "")
                  .find("not applicable: a CPU kernel plugin has no StreamExecutor module"),
              std::string::npos)
        << result.at("id") << ": " << result.value("message", "");
  }
  EXPECT_GT(not_applicable, 0);
}

// tests/kernel_registration_defects' CPU kernel plugin, the example of issue 19: with every
// default tier it is conformant, with its kernels verified (it was "nothing verified" before).
TEST(CpuKernelPlugin, TheKernelRegistrationFixtureIsConformantWithKernelsVerified) {
  const Outcome run = RunPlugin(KERNEL_REGISTRATION_CPU_PLUGIN, "registration_fixture", "");
  ASSERT_TRUE(run.report.contains("results"));
  EXPECT_EQ(run.exit_code, 0) << run.report.value("not_conformant_reason", "");
  EXPECT_GT(Count(run.report, "kernels", "pass"), 0);
}

// An explicit --tier runtime asks for something that cannot exist: a usage error.
TEST(CpuKernelPlugin, AskingForTheRuntimeTierIsAUsageError) {
  const Outcome run = RunConformance("legal", "--tier runtime");
  EXPECT_EQ(run.exit_code, 2) << run.console;
  EXPECT_NE(run.console.find("is a CPU kernel plugin (TF_InitKernel without SE_InitPlugin): it has "
                             "no StreamExecutor module"),
            std::string::npos)
      << run.console;
}

struct Defect {
  std::string variant, call, problem_part, check_part;
};

void PrintTo(const Defect& d, std::ostream* out) { *out << d.variant; }

class CpuKernelPluginDefect : public testing::TestWithParam<Defect> {};

TEST_P(CpuKernelPluginDefect, IsCaughtByExactlyOneRootCauseNamingTheCallback) {
  const Defect& d = GetParam();
  const Outcome run = RunConformance(d.variant);
  ASSERT_TRUE(run.report.contains("results"));
  EXPECT_EQ(run.exit_code, 1);
  ASSERT_EQ(run.report.at("root_causes").size(), 1u) << run.report.at("root_causes").dump(2);
  const auto& cause = run.report.at("root_causes").at(0);
  EXPECT_EQ(cause.value("call", ""), d.call) << cause.dump(2);
  EXPECT_NE(cause.value("problem", "").find(d.problem_part), std::string::npos) << cause.dump(2);
  // Every check of the root cause is of the kernel (or callback) at fault.
  ASSERT_FALSE(cause.at("checks").empty());
  for (const auto& check : cause.at("checks"))
    EXPECT_NE(check.get<std::string>().find(d.check_part), std::string::npos) << cause.dump(2);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, CpuKernelPluginDefect,
    testing::Values(Defect{"relu_wrong_values", "compute_func", "wrong values", "kernel.Relu."},
                    Defect{"addv2_writes_past_output", "compute_func", "write past a buffer's end",
                           "kernel.AddV2.writes_in_bounds"},
                    Defect{"optimizer_unparsable_graph", "TP_Optimizer.optimize_func",
                           "unparsable GraphDef", "graph.optimize.output_parses"}),
    [](const testing::TestParamInfo<Defect>& info) { return info.param.variant; });

}  // namespace
