// The kernel tier's vendor-facing options end to end, on variants of kernel_plugin.cc:
//  - a TF32 MatMul (legitimately less precise) fails the value checks, stating the tolerance and
//    the distance in ULP and relative terms; waived, or declared with --precision, it passes, and
//    in every case the op's own checks (deterministic, late_inputs, ...) still run;
//  - --repeat on a plugin that is wrong in every other process turns its checks `flaky`, which
//    fails the gate unless waived as flaky (JSON and JUnit carry it);
//  - a case larger than the device is not_supported naming the limit; a scenario folder with
//    only kernel files is used without the "no scenario files" warning.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/tool_run.h"

namespace {

namespace fs = std::filesystem;
using conformance::test_support::OutcomeOf;
using conformance::test_support::Result;
using conformance::test_support::Shell;
using conformance::test_support::ToolRun;
using nlohmann::json;

std::string Variant(const std::string& name) {
  return std::string(KERNEL_DEFECTS_DIR) + "/" + name + ".so";
}

class VendorOptions : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("vendor_options_" + std::to_string(getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  // plugin_conformance PLUGIN ARGS with ENV before it, in a shell.
  ToolRun Conformance(const std::string& plugin, const std::string& args,
                      const std::string& env = "", bool junit = false) {
    return conformance::test_support::RunConformance(PLUGIN_CONFORMANCE, plugin, args, dir_, env,
                                                     junit);
  }

  fs::path dir_;
};

constexpr const char* kMatMulProperties[] = {"deterministic", "late_inputs", "work_after_compute",
                                             "injected_faults"};
const std::string kMatMulArgs = "--tier kernels --filter 'kernel.MatMul.*' --seed 7";

TEST_F(VendorOptions, Tf32MatMulFailsStatingToleranceAndDistance) {
  const ToolRun run = Conformance(Variant("tf32_matmul"), kMatMulArgs);
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const json* plain = Result(run, "kernel.MatMul.float.plain");
  ASSERT_NE(plain, nullptr) << run.output;
  EXPECT_EQ(plain->at("outcome"), "fail");
  const std::string message = plain->at("message");
  EXPECT_NE(message.find("tolerance rtol=1e-05 atol=1e-05 ulp=0"), std::string::npos) << message;
  EXPECT_NE(message.find(" ULP, relative "), std::string::npos) << message;
  const json& details = plain->at("details");
  EXPECT_EQ(details.at("tolerance"), "rtol=1e-05 atol=1e-05 ulp=0");
  EXPECT_GT(std::stoull(details.at("ulp_distance").get<std::string>()), 4u);
  EXPECT_GT(std::stod(details.at("relative_distance").get<std::string>()), 1e-5);
  // The op's own checks compare the kernel with itself: they run, and pass.
  for (const char* property : kMatMulProperties) {
    EXPECT_EQ(OutcomeOf(run, std::string("kernel.MatMul.") + property), "pass") << property;
  }
}

TEST_F(VendorOptions, WaivedValueChecksLeaveTheOpChecksRunning) {
  const std::string waivers =
      Write("waivers.yaml", "- id: kernel.MatMul.float.*\n  reason: TF32 on tensor cores\n");
  const ToolRun run = Conformance(Variant("tf32_matmul"), kMatMulArgs + " --waivers " + waivers);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(OutcomeOf(run, "kernel.MatMul.float.plain"), "waived");
  for (const char* property : kMatMulProperties) {
    EXPECT_EQ(OutcomeOf(run, std::string("kernel.MatMul.") + property), "pass") << property;
  }
}

TEST_F(VendorOptions, DeclaredPrecisionPassesAndIsShown) {
  const std::string precision = Write(
      "precision.yaml",
      // TF32's error grows with the terms, not the result: on the generated [3,4] x [4,5] case
      // it reaches 0.015 where terms cancel, so the vendor's bound must say so.
      "- op: MatMul\n  dtype: float\n  rtol: 1.0e-2\n  atol: 5.0e-2\n"
      "  reason: float32 MatMul runs in TF32 on tensor cores, as TensorFlow does on Ampere\n");
  const ToolRun run =
      Conformance(Variant("tf32_matmul"), kMatMulArgs + " --precision " + precision);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  for (const char* id : {"kernel.MatMul.float.plain", "kernel.MatMul.float.transposed"}) {
    const json* result = Result(run, id);
    ASSERT_NE(result, nullptr) << id;
    EXPECT_EQ(result->at("outcome"), "pass") << id << ": " << result->value("message", "");
    EXPECT_EQ(result->at("details").value("declared_precision", ""),
              "rtol=0.01 atol=0.05 ulp=0 (float32 MatMul runs in TF32 on tensor cores, as "
              "TensorFlow does on Ampere; " +
                  precision + ":1)");
  }
  for (const char* property : kMatMulProperties) {
    EXPECT_EQ(OutcomeOf(run, std::string("kernel.MatMul.") + property), "pass") << property;
  }
  ASSERT_TRUE(run.report.contains("declared_precision")) << run.output;
  const json& declared = run.report.at("declared_precision").at(0);
  EXPECT_EQ(declared.at("op"), "MatMul");
  EXPECT_EQ(declared.at("dtype"), "float");
  EXPECT_DOUBLE_EQ(declared.at("rtol").get<double>(), 1e-2);
  EXPECT_EQ(declared.at("source"), precision + ":1");
  EXPECT_NE(run.output.find("Declared precision (--precision):\n  MatMul float: rtol=0.01 "
                            "atol=0.05 ulp=0 (float32 MatMul runs in TF32"),
            std::string::npos)
      << run.output;
}

TEST_F(VendorOptions, AScenarioDeclarationCoversOnlyItsScenario) {
  const std::string precision = Write("precision.yaml",
                                      "- op: MatMul\n  dtype: float\n  scenario: plain\n"
                                      "  rtol: 1.0e-2\n  atol: 1.0e-2\n  reason: TF32 for plain\n");
  const ToolRun run =
      Conformance(Variant("tf32_matmul"), kMatMulArgs + " --precision " + precision);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(OutcomeOf(run, "kernel.MatMul.float.plain"), "pass");
  EXPECT_EQ(OutcomeOf(run, "kernel.MatMul.float.transposed"), "fail");
  ASSERT_TRUE(run.report.contains("declared_precision")) << run.output;
  EXPECT_EQ(run.report.at("declared_precision").at(0).value("scenario", ""), "plain");
  EXPECT_NE(run.output.find("  MatMul float (scenario plain): rtol=0.01"), std::string::npos)
      << run.output;
}

TEST_F(VendorOptions, BadPrecisionFileIsAUsageError) {
  const std::string precision =
      Write("precision.yaml", "- op: MatMull\n  dtype: float\n  rtol: -1\n  reason: r\n");
  const ToolRun run =
      Conformance(Variant("tf32_matmul"), kMatMulArgs + " --precision " + precision);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(
      run.output.find(precision + ":1:7: key 'op': unknown op 'MatMull' (did you mean 'MatMul'?)"),
      std::string::npos)
      << run.output;
}

const std::string kAddArgs = "--tier kernels --filter 'kernel.AddV2.*' --seed 7";

std::string FlakyEnv(const std::string& counter) {
  return "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")) +
         " FLAKY_COUNTER_FILE=" + Shell(counter);
}

TEST_F(VendorOptions, RepeatTurnsAVaryingOutcomeIntoFlaky) {
  const std::string counter = (dir_ / "counter").string();
  const ToolRun run =
      Conformance(Variant("flaky"), kAddArgs + " --repeat 2", FlakyEnv(counter), /*junit=*/true);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const json* result = Result(run, "kernel.AddV2.float.broadcast");
  ASSERT_NE(result, nullptr) << run.output;
  EXPECT_EQ(result->at("outcome"), "flaky");
  EXPECT_EQ(result->at("details").at("outcomes"), "pass,fail");
  EXPECT_EQ(result->at("message").get<std::string>().rfind(
                "outcome varied over 2 runs (pass,fail); fail: case float", 0),
            0u)
      << result->at("message");
  EXPECT_EQ(run.report.at("repeat"), 2);
  EXPECT_GT(run.report.at("counts").at("flaky").get<int>(), 0);
  EXPECT_FALSE(run.report.at("conformant").get<bool>());
  // The op's own checks compare the kernel with itself: the same every run.
  EXPECT_EQ(OutcomeOf(run, "kernel.AddV2.deterministic"), "pass");
  EXPECT_NE(run.junit.find("type=\"flaky\""), std::string::npos) << run.junit;
  EXPECT_NE(run.output.find("every unit runs 2 times (--repeat)"), std::string::npos) << run.output;
}

TEST_F(VendorOptions, AFlakeWaivedAsFlakyPassesTheGate) {
  const std::string counter = (dir_ / "counter").string();
  const std::string waivers = Write(
      "waivers.yaml", "- id: kernel.AddV2.*\n  reason: known flake, ticket 7\n  flaky: true\n");
  const ToolRun run = Conformance(Variant("flaky"), kAddArgs + " --repeat 2 --waivers " + waivers,
                                  FlakyEnv(counter));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const json* result = Result(run, "kernel.AddV2.float.broadcast");
  ASSERT_NE(result, nullptr) << run.output;
  EXPECT_EQ(result->at("outcome"), "waived");
  EXPECT_EQ(result->at("details").at("waived_as"), "flaky");
  // A flake waiver does not excuse a check that fails every time, nor turn a pass stale.
  EXPECT_EQ(OutcomeOf(run, "kernel.AddV2.deterministic"), "pass");
}

TEST_F(VendorOptions, AFlakyWaiverDoesNotExcuseAConsistentFailure) {
  const std::string waivers =
      Write("waivers.yaml", "- id: kernel.AddV2.*\n  reason: known flake\n  flaky: true\n");
  const ToolRun run =
      Conformance(Variant("wrong_arithmetic"), kAddArgs + " --repeat 2 --waivers " + waivers,
                  "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(OutcomeOf(run, "kernel.AddV2.float.broadcast"), "fail");
}

TEST_F(VendorOptions, OversizedCaseIsNotSupportedNamingTheLimit) {
  const ToolRun run =
      Conformance(Variant("good"), kAddArgs + " --scenarios " + Shell(OVERSIZED_SCENARIOS_DIR),
                  "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")));
  const json* result = Result(run, "kernel.AddV2.float.huge");
  ASSERT_NE(result, nullptr) << run.output;
  EXPECT_EQ(result->at("outcome"), "not_supported");
  EXPECT_EQ(result->at("message"),
            "case float [20000,20000] x [20000,20000] needs 3.2 GB for its inputs alone; the "
            "device holds 1 GiB (device_memory_usage); the other cases ran and passed");
  EXPECT_EQ(run.exit_code, 0) << run.output;  // every other AddV2 check passed
}

TEST_F(VendorOptions, KernelOnlyScenarioFolderIsUsedWithoutWarning) {
  const std::string out_path = (dir_ / "list.txt").string();
  const std::string command = Shell(PLUGIN_CONFORMANCE) + " --list --scenarios " +
                              Shell(OVERSIZED_SCENARIOS_DIR) + " > " + Shell(out_path) + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::ostringstream output;
  output << std::ifstream(out_path).rdbuf();
  EXPECT_NE(output.str().find("kernel.AddV2.float.huge"), std::string::npos) << output.str();
  EXPECT_EQ(output.str().find("no *.yaml"), std::string::npos) << output.str();
}

// A vendor's scenario may name any op TensorFlow registers, not only the catalogue's: Floor runs
// on a plugin with a Floor kernel. Its literal expectation is the oracle; the scenario without
// one has none (the reference plugin has no Floor kernel) and is skipped saying so.
TEST_F(VendorOptions, ScenarioForARegistryOpOutsideTheCatalogueRuns) {
  const ToolRun run = Conformance(Variant("floor_kernel"),
                                  "--tier kernels --filter 'kernel.Floor.*' --seed 7 "
                                  "--scenarios " +
                                      Shell(REGISTRY_OP_SCENARIOS_DIR));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const json* literal = Result(run, "kernel.Floor.float.literal");
  ASSERT_NE(literal, nullptr) << run.output;
  EXPECT_EQ(literal->at("outcome"), "pass") << literal->value("message", "");
  const json* random = Result(run, "kernel.Floor.float.random");
  ASSERT_NE(random, nullptr) << run.output;
  EXPECT_EQ(random->at("outcome"), "skipped");
  EXPECT_EQ(random->at("message"), "the reference plugin has no Floor kernel for float");
}

// --precision for an op outside the catalogue (issue 16): Floor 1e-4 off fails its literal case,
// and passes it once the vendor declares the precision, which the result then shows.
TEST_F(VendorOptions, PrecisionDeclaredForARegistryOpIsApplied) {
  const std::string args = "--tier kernels --filter 'kernel.Floor.*' --seed 7 --scenarios " +
                           Shell(REGISTRY_OP_SCENARIOS_DIR);
  const ToolRun undeclared = Conformance(Variant("floor_approximate"), args);
  EXPECT_EQ(undeclared.exit_code, 1) << undeclared.output;
  EXPECT_EQ(OutcomeOf(undeclared, "kernel.Floor.float.literal"), "fail");

  const std::string precision = Write(
      "precision.yaml", "- op: Floor\n  dtype: float\n  rtol: 1.0e-3\n  reason: fast floor\n");
  const ToolRun declared =
      Conformance(Variant("floor_approximate"), args + " --precision " + precision);
  EXPECT_EQ(declared.exit_code, 0) << declared.output;
  const json* literal = Result(declared, "kernel.Floor.float.literal");
  ASSERT_NE(literal, nullptr) << declared.output;
  EXPECT_EQ(literal->at("outcome"), "pass") << literal->value("message", "");
  EXPECT_EQ(literal->at("details").value("declared_precision", ""),
            "rtol=0.001 atol=0 ulp=0 (fast floor; " + precision + ":1)");
}

// A vendor's error case with the default expectation (issue 29 item 11): the reference kernel
// fails with INVALID_ARGUMENT and sets no output, and the candidate must fail the same way. The
// case was skipped ("the reference plugin left an output unset") whatever the candidate did.
TEST_F(VendorOptions, AnErrorCaseJudgedAgainstTheReferenceRuns) {
  const ToolRun run =
      Conformance(Variant("good"), kAddArgs + " --scenarios " + Shell(ERROR_CASE_SCENARIOS_DIR),
                  "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")));
  const json* result = Result(run, "kernel.AddV2.float.incompatible");
  ASSERT_NE(result, nullptr) << run.output;
  EXPECT_EQ(result->at("outcome"), "pass") << result->value("message", "");
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// A kernel whose values vary between identical runs (issue 29 item 19) fails `deterministic`
// saying so; the checks that compare one more run with the first (ordering and caching) are not
// judged, where they were three root causes of ordering and caching bugs it does not have.
TEST_F(VendorOptions, ValuesThatVaryAreNotDiagnosedAsOrderingBugs) {
  const ToolRun run = Conformance(Variant("values_vary"), kAddArgs,
                                  "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const json* deterministic = Result(run, "kernel.AddV2.deterministic");
  ASSERT_NE(deterministic, nullptr) << run.output;
  // A warning by its catalogue entry (determinism has no consequence of its own); the case checks
  // that met the wrong runs fail the run.
  EXPECT_EQ(deterministic->at("outcome"), "warning");
  EXPECT_NE(deterministic->value("message", "").find("vary between identical runs"),
            std::string::npos)
      << deterministic->dump(2);
  for (const char* property : {"late_inputs", "work_after_compute", "reused_buffers",
                               "concurrent_computes", "inputs_released_at_enqueue"}) {
    const json* result = Result(run, std::string("kernel.AddV2.") + property);
    ASSERT_NE(result, nullptr) << property;
    EXPECT_EQ(result->at("outcome"), "skipped") << result->dump(2);
  }
  for (const auto& cause : run.report.at("root_causes")) {
    const std::string problem = cause.value("problem", "");
    EXPECT_NE(problem, "read inputs ahead of the stream") << cause.dump(2);
    EXPECT_NE(problem, "work finished off the stream") << cause.dump(2);
    EXPECT_NE(problem, "stale result for reused buffers") << cause.dump(2);
    EXPECT_NE(problem, "race between concurrent computes") << cause.dump(2);
  }
}

// --precision warns about bounds that make the checks they widen vacuous, and about a
// declaration for a kernel the plugin does not register, as a waiver file does about its unused
// entries (issue 29 item 17); a plausible declaration for a registered kernel gets no warning.
// The `good` variant registers AddV2 only.
TEST_F(VendorOptions, PrecisionDeclarationsThatCheckNothingAreWarnedAbout) {
  const std::string precision = Write("precision.yaml",
                                      "- op: AddV2\n  dtype: float\n  atol: 100\n  reason: r\n"
                                      "- op: AddV2\n  dtype: double\n  rtol: 1.0e+30\n  reason: r\n"
                                      "- op: Relu\n  dtype: float\n  rtol: 1.0e-3\n  reason: r\n"
                                      "- op: AddV2\n  dtype: float\n  scenario: broadcast\n"
                                      "  rtol: 1.0e-3\n  reason: r\n");
  const ToolRun run = Conformance(Variant("good"), kAddArgs + " --precision " + precision,
                                  "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(Variant("good")));
  EXPECT_NE(run.output.find("precision.yaml:1: precision declaration for AddV2 (float): atol 100 "
                            "accepts any result within 100 of the expected one"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("precision.yaml:5: precision declaration for AddV2 (double): rtol "
                            "1e+30 accepts zeros for every expected value"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("precision.yaml:9: precision declaration for Relu (float) is unused: "
                            "the plugin registers no Relu kernel for float"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("precision.yaml:13:"), std::string::npos) << run.output;
  std::size_t warned = 0;
  for (const auto& warning : run.report.value("warnings", json::array())) {
    if (warning.get<std::string>().find("precision declaration for") != std::string::npos) ++warned;
  }
  EXPECT_EQ(warned, 3u) << run.report.value("warnings", json::array()).dump(2);
}

TEST_F(VendorOptions, MisspeltRegistryOpIsAUsageErrorWithASuggestion) {
  const std::filesystem::path scenarios = dir_ / "typo";
  std::filesystem::create_directories(scenarios);
  std::ofstream(scenarios / "flor.yaml")
      << "tensorflow: t\nfix: f\nkernels:\n  - op: Flor\n    name: literal\n    rule: r\n"
         "    dtypes: [float]\n    shapes: [[[2]]]\n    inputs: [{name: x, values: [1, 2]}]\n";
  const ToolRun run = Conformance(Variant("floor_kernel"),
                                  "--tier kernels --scenarios " + Shell(scenarios.string()));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("flor.yaml:4:9: key 'op': unknown op 'Flor' (did you mean 'Floor'?); "
                            "kernel scenarios run the ops TensorFlow 2.21.0 registers"),
            std::string::npos)
      << run.output;
}

}  // namespace
