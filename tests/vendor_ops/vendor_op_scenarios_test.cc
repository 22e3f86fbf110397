// Vendor kernel scenarios for an op the plugin defines itself (VendorScale, vendor_scale.c), end
// to end on plugin_conformance:
//  - the legal plugin passes the scenario with literal values; the one without values runs for
//    the op's own checks and is not_supported saying its values were not compared;
//  - a kernel that applies the wrong scale fails exactly that literal check, one root cause;
//  - a wrong input name, an unknown attr, a wrongly typed attr and an op nobody defines are
//    usage errors (exit 2) with file:line:col and a suggestion that knows the plugin's ops;
//  - scenarios naming only catalogue and registry ops never list the plugin's ops.
#include <unistd.h>

#include <filesystem>
#include <fstream>
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
  return std::string(VENDOR_OPS_DIR) + "/" + name + ".so";
}

const std::string kVendorScaleArgs =
    "--tier kernels --filter 'kernel.VendorScale.*' --seed 7 --scenarios ";

class VendorOpScenarios : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("vendor_op_scenarios_" + std::to_string(getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "scenarios");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A scenario folder holding one file, `scale.yaml`, with one VendorScale scenario whose
  // `inputs:` and `attrs:` lines are given.
  std::string ScenarioDir(const std::string& op, const std::string& inputs,
                          const std::string& attrs) {
    std::ofstream(dir_ / "scenarios" / "scale.yaml") << "tensorflow: t\nfix: f\nkernels:\n"
                                                        "  - op: "
                                                     << op
                                                     << "\n"
                                                        "    name: literal\n"
                                                        "    rule: r\n"
                                                        "    dtypes: [float]\n"
                                                        "    shapes: [[[2]]]\n"
                                                        "    inputs: "
                                                     << inputs << "\n    attrs: " << attrs << "\n";
    return (dir_ / "scenarios").string();
  }

  // What plugin_conformance prints on the legal plugin for a scale.yaml that must be refused
  // as a usage error (exit 2), before any kernel runs.
  std::string UsageError(const std::string& op, const std::string& inputs,
                         const std::string& attrs) {
    const ToolRun run =
        Conformance(Variant("vendor_scale"),
                    "--tier kernels --scenarios " + Shell(ScenarioDir(op, inputs, attrs)));
    EXPECT_EQ(run.exit_code, 2) << run.output;
    return run.output;
  }

  ToolRun Conformance(const std::string& plugin, const std::string& args) {
    return conformance::test_support::RunConformance(PLUGIN_CONFORMANCE, plugin, args, dir_);
  }

  fs::path dir_;
};

// writes_in_bounds is not_supported on this device: it gives every tensor its own allocation.
constexpr const char* kOpChecks[] = {
    "inputs_untouched", "leaks",           "late_inputs",   "work_after_compute",
    "reused_buffers",   "injected_faults", "deterministic", "concurrent_computes"};

TEST_F(VendorOpScenarios, LegalPluginPassesWithItsValuesCompared) {
  const ToolRun run =
      Conformance(Variant("vendor_scale"), kVendorScaleArgs + Shell(VENDOR_SCENARIOS_DIR));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const json* literal = Result(run, "kernel.VendorScale.float.literal");
  ASSERT_NE(literal, nullptr) << run.output;
  EXPECT_EQ(literal->at("outcome"), "pass") << literal->value("message", "");
  // No oracle and no expected values: run, never a vacuous pass.
  const json* random = Result(run, "kernel.VendorScale.float.random");
  ASSERT_NE(random, nullptr) << run.output;
  EXPECT_EQ(random->at("outcome"), "not_supported");
  EXPECT_NE(random->value("message", "")
                .find("values not compared: VendorScale is an op the "
                      "plugin defines itself (TF_RegisterOpDefinition)"),
            std::string::npos)
      << random->value("message", "");
  // The checks that need no oracle judged its cases.
  for (const char* check : kOpChecks)
    EXPECT_EQ(OutcomeOf(run, std::string("kernel.VendorScale.") + check), "pass") << check;
}

TEST_F(VendorOpScenarios, WrongScaleFailsOneRootCauseNamingVendorScale) {
  const ToolRun run =
      Conformance(Variant("wrong_scale"), kVendorScaleArgs + Shell(VENDOR_SCENARIOS_DIR));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const json* literal = Result(run, "kernel.VendorScale.float.literal");
  ASSERT_NE(literal, nullptr) << run.output;
  EXPECT_EQ(literal->at("outcome"), "fail");
  // The worst element: 3 * 2.5, computed as 3 * 1.
  EXPECT_EQ(literal->at("details").value("expected", ""), "7.5");
  EXPECT_EQ(literal->at("details").value("actual", ""), "3");
  ASSERT_EQ(run.report.at("root_causes").size(), 1u) << run.report.at("root_causes").dump(1);
  const json& cause = run.report.at("root_causes").at(0);
  EXPECT_EQ(cause.at("call"), "compute_func");
  EXPECT_EQ(cause.at("problem"), "wrong values");
  EXPECT_EQ(cause.at("checks"), json::array({"kernel.VendorScale.float.literal"}));
  // The wrong scale is consistent: every check that compares the kernel with itself passes.
  for (const char* check : kOpChecks)
    EXPECT_EQ(OutcomeOf(run, std::string("kernel.VendorScale.") + check), "pass") << check;
}

TEST_F(VendorOpScenarios, WrongInputNameIsAUsageError) {
  const std::string output =
      UsageError("VendorScale", "[{name: input, values: [1, 2]}]", "{scale: 2}");
  EXPECT_NE(output.find("scale.yaml:9:21: key 'name': VendorScale has no input 'input'; its "
                        "inputs, in order: x"),
            std::string::npos)
      << output;
}

TEST_F(VendorOpScenarios, UnknownAndWronglyTypedAttrsAreUsageErrors) {
  const std::string unknown =
      UsageError("VendorScale", "[{name: x, values: [1, 2]}]", "{scael: 2}");
  EXPECT_NE(unknown.find("scale.yaml:10:13: key 'scael': VendorScale has no attr 'scael' "
                         "(did you mean 'scale'?)"),
            std::string::npos)
      << unknown;

  const std::string typed =
      UsageError("VendorScale", "[{name: x, values: [1, 2]}]", "{scale: true}");
  EXPECT_NE(typed.find("scale.yaml:10:13: key 'scale': attr 'scale' of VendorScale is a "
                       "float, got true"),
            std::string::npos)
      << typed;
}

// An op neither the plugin nor TensorFlow defines: still unknown, and the suggestion now also
// draws on the plugin's own ops.
TEST_F(VendorOpScenarios, OpNobodyDefinesIsStillUnknownWithASuggestion) {
  const std::string output = UsageError("VendorScal", "[{name: x, values: [1, 2]}]", "{scale: 2}");
  EXPECT_NE(output.find("scale.yaml:4:9: key 'op': unknown op 'VendorScal' (did you mean "
                        "'VendorScale'?); kernel scenarios run the ops TensorFlow 2.21.0 "
                        "registers (specs/ops/registry) and the ops the plugin defines "
                        "(TF_RegisterOpDefinition: VendorScale)"),
            std::string::npos)
      << output;
}

// --precision may declare the plugin's own op once a scenario runs it: the declaration is
// read against the same listing and shown on the op's case.
TEST_F(VendorOpScenarios, PrecisionMayBeDeclaredForThePluginsOwnOp) {
  const fs::path precision = dir_ / "precision.yaml";
  std::ofstream(precision) << "- op: VendorScale\n  dtype: float\n  ulp: 2\n  reason: fused\n";
  const ToolRun run =
      Conformance(Variant("vendor_scale"), kVendorScaleArgs + Shell(VENDOR_SCENARIOS_DIR) +
                                               " --precision " + Shell(precision.string()));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const json* literal = Result(run, "kernel.VendorScale.float.literal");
  ASSERT_NE(literal, nullptr) << run.output;
  EXPECT_EQ(literal->at("outcome"), "pass") << literal->value("message", "");
  EXPECT_EQ(literal->at("details").value("declared_precision", ""),
            "rtol=0 atol=0 ulp=2 (fused; " + precision.string() + ":1)");
}

}  // namespace
