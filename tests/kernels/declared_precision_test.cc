// The --precision file: what a good one declares, every problem of a bad one at once with
// file:line:col, the key and a suggestion, and how a declaration widens a tolerance.
#include <gtest/gtest.h>

#include "kernels/declared_precision.h"
#include "kernels/kernel_scenario_set.h"
#include "ops/registry.h"
#include "scenario/scenario_error.h"

namespace conformance::kernels {
namespace {

// The built-in kernel scenarios: the names a declaration's `scenario` may give.
const std::vector<KernelScenario>& Scenarios() {
  static const std::vector<KernelScenario> scenarios = BuiltinKernelScenarios();
  return scenarios;
}

const ops::OpRegistry* Newest() { return ops::FindOpRegistry("2.21.0"); }

std::vector<DeclaredPrecision> Parse(const std::string& text) {
  return ParseDeclaredPrecision(text, "p.yaml", Scenarios(), Newest());
}

std::vector<std::string> Problems(const std::string& text) {
  try {
    Parse(text);
  } catch (const scenario::ScenarioFilesError& error) {
    std::vector<std::string> lines;
    for (const auto& e : error.errors()) lines.push_back(e.ToString());
    return lines;
  }
  return {};
}

TEST(DeclaredPrecision, GoodFileDeclaresPerOpAndDtype) {
  const auto declared = Parse(
      "- op: MatMul\n  dtype: float\n  rtol: 1.0e-3\n  reason: TF32 on tensor cores\n"
      "- op: Conv2D\n  dtype: half\n  ulp: 8\n  atol: 1e-3\n  reason: fp16 accumulation\n");
  ASSERT_EQ(declared.size(), 2u);
  EXPECT_EQ(declared[0].op, "MatMul");
  EXPECT_EQ(declared[0].dtype, "float");
  EXPECT_DOUBLE_EQ(declared[0].rtol, 1e-3);
  EXPECT_EQ(declared[0].source, "p.yaml:1");
  EXPECT_EQ(declared[1].ulp, 8u);
  EXPECT_EQ(declared[1].source, "p.yaml:5");
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_FLOAT, "plain"), &declared[0]);
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_DOUBLE, "plain"), nullptr);
  EXPECT_EQ(DeclarationText(declared[0]),
            "rtol=0.001 atol=0 ulp=0 (TF32 on tensor cores; p.yaml:1)");
}

TEST(DeclaredPrecision, AScenarioDeclarationAppliesToItsScenarioFirst) {
  const auto declared = Parse(
      "- op: MatMul\n  dtype: float\n  scenario: huge_magnitudes\n  rtol: 1e-2\n  reason: big\n"
      "- op: MatMul\n  dtype: float\n  rtol: 1e-3\n  reason: TF32\n"
      "- op: MatMul\n  dtype: double\n  scenario: plain\n  rtol: 1e-9\n  reason: p\n");
  ASSERT_EQ(declared.size(), 3u);
  EXPECT_EQ(declared[0].scenario, "huge_magnitudes");
  EXPECT_EQ(declared[1].scenario, "");
  // The scenario's own declaration wins; the others of the op take the op's.
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_FLOAT, "huge_magnitudes"), &declared[0]);
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_FLOAT, "plain"), &declared[1]);
  // A scenario declaration covers nothing else of its op and dtype.
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_DOUBLE, "plain"), &declared[2]);
  EXPECT_EQ(FindDeclaration(declared, "MatMul", TF_DOUBLE, "transposed"), nullptr);
}

// Issue 16: an op outside the catalogue that TensorFlow registers (Floor), and an op only a
// vendor's scenario runs (one the plugin defines itself), may be declared too.
TEST(DeclaredPrecision, OpsOutsideTheCatalogueMayBeDeclared) {
  const auto floor = Parse("- op: Floor\n  dtype: float\n  rtol: 1e-3\n  reason: fast path\n");
  ASSERT_EQ(floor.size(), 1u);
  EXPECT_EQ(FindDeclaration(floor, "Floor", TF_FLOAT, "literal"), &floor[0]);

  std::vector<KernelScenario> scenarios = Scenarios();
  KernelScenario own;
  own.op = "VendorScale";
  own.name = "literal";
  own.dtypes = {TF_FLOAT, TF_INT32};
  scenarios.push_back(own);
  const auto declared = ParseDeclaredPrecision(
      "- op: VendorScale\n  dtype: float\n  scenario: literal\n  ulp: 4\n  reason: r\n", "p.yaml",
      scenarios, Newest());
  ASSERT_EQ(declared.size(), 1u);
  EXPECT_EQ(declared[0].scenario, "literal");
  try {
    ParseDeclaredPrecision("- op: VendorScale\n  dtype: int32\n  ulp: 4\n  reason: r\n", "p.yaml",
                           scenarios, Newest());
    ADD_FAILURE() << "int32 is no floating dtype of VendorScale's scenarios";
  } catch (const scenario::ScenarioFilesError& error) {
    EXPECT_EQ(error.errors().at(0).ToString(),
              "p.yaml:2:10: key 'dtype': VendorScale has no floating dtype 'int32'; precision is "
              "declared for float (other dtypes are compared exactly)");
  }
  // Without the scenario, VendorScale is unknown: neither TensorFlow's nor a scenario's op.
  EXPECT_EQ(Problems("- op: VendorScale\n  dtype: float\n  ulp: 4\n  reason: r\n").size(), 1u);
}

TEST(DeclaredPrecision, WidensEachBoundToTheLarger) {
  DeclaredPrecision d;
  d.rtol = 1e-3;
  d.ulp = 2;
  const Tolerance widened = Widen(Tolerance{.rtol = 1e-5, .atol = 1e-5, .ulp = 4}, &d);
  EXPECT_DOUBLE_EQ(widened.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(widened.atol, 1e-5);
  EXPECT_EQ(widened.ulp, 4u);
  EXPECT_DOUBLE_EQ(Widen(Tolerance{.rtol = 1e-5}, nullptr).rtol, 1e-5);
}

TEST(DeclaredPrecision, EveryProblemIsNamedAtItsPlace) {
  EXPECT_EQ(Problems("- op: MatMull\n  dtype: float\n  rtol: 1e-3\n  reason: r\n"),
            (std::vector<std::string>{"p.yaml:1:7: key 'op': unknown op 'MatMull' (did you mean "
                                      "'MatMul'?); declarations name ops TensorFlow registers "
                                      "or ops a kernel scenario runs"}));
  EXPECT_EQ(Problems("- op: MatMul\n  dtype: int32\n  rtol: 1e-3\n  reason: r\n"),
            (std::vector<std::string>{
                "p.yaml:2:10: key 'dtype': MatMul has no floating dtype 'int32'; precision is "
                "declared for float, double, bfloat16, half (other dtypes are compared exactly)"}));
  EXPECT_EQ(Problems("- op: MatMul\n  dtype: float\n  rtol: -1e-3\n  atol: .nan\n  reason: r\n"),
            (std::vector<std::string>{
                "p.yaml:3:9: key 'rtol': expected a finite number >= 0, got '-1e-3'",
                "p.yaml:4:9: key 'atol': expected a finite number >= 0, got '.nan'"}));
  EXPECT_EQ(Problems("- op: MatMul\n  dtype: float\n  rtl: 1e-3\n"),
            (std::vector<std::string>{
                "p.yaml:3:3: key 'rtl': unknown key in precision declaration (did you mean "
                "'rtol'?); allowed keys: op, dtype, scenario, rtol, atol, ulp, reason",
                "p.yaml:1:3: key 'reason': missing or empty (every declaration names its op, "
                "dtype and the reason the vendor accepts the lower precision)"}));
  EXPECT_EQ(Problems("- op: MatMul\n  dtype: float\n  reason: r\n"),
            (std::vector<std::string>{
                "p.yaml:1:3: key 'rtol': declares no tolerance: give rtol, atol or ulp above 0"}));
  EXPECT_EQ(Problems("- {op: MatMul, dtype: float, rtol: 1, reason: a}\n"
                     "- {op: MatMul, dtype: float, rtol: 2, reason: b}\n"),
            (std::vector<std::string>{
                "p.yaml:2:3: key 'op': MatMul float is already declared at p.yaml:1"}));
  EXPECT_EQ(Problems("- {op: MatMul, dtype: float, scenario: plian, rtol: 1, reason: a}\n"),
            (std::vector<std::string>{
                "p.yaml:1:40: key 'scenario': MatMul has no kernel scenario 'plian' (did you mean "
                "'plain'?); its scenarios: plain, transposed, tiny_magnitudes, huge_magnitudes"}));
  EXPECT_EQ(Problems("- {op: MatMul, dtype: float, scenario: plain, rtol: 1, reason: a}\n"
                     "- {op: MatMul, dtype: float, scenario: plain, rtol: 2, reason: b}\n"),
            (std::vector<std::string>{
                "p.yaml:2:3: key 'op': MatMul float plain is already declared at p.yaml:1"}));
}

}  // namespace
}  // namespace conformance::kernels
