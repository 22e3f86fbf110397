// Cases generated from TensorFlow's op definitions for registered cells no scenario covers
// (harness/kernels/generated_cases.h), and their judgement against TensorFlow's CPU
// (tensorflow_cpu_oracle.h) on hand-made driver results: no TensorFlow needed. What the
// installed TensorFlow does with them is pinned by tests/generated_cases (label `tensorflow`).
#include "kernels/generated_cases.h"

#include <gtest/gtest.h>

#include <set>

#include "kernels/kernel_scenario_set.h"
#include "kernels/tensorflow_cpu_oracle.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() {
  const ops::OpRegistry* registry = ops::FindOpRegistry("2.21.0");
  EXPECT_NE(registry, nullptr);
  return *registry;
}

json Generate(const std::vector<RegisteredKernel>& kernels, std::uint64_t seed = 1,
              const std::vector<KernelScenario>& scenarios = {}) {
  return GenerateCases(kernels, scenarios, Registry(), {}, seed);
}

std::vector<json> CasesOf(const json& generated, const std::string& id) {
  std::vector<json> found;
  for (const json& kernel_case : generated.at("cases")) {
    if (kernel_case.at("id") == id) found.push_back(kernel_case);
  }
  return found;
}

TEST(GeneratedCases, AnElementwiseOpGetsRanksZeroToFourSpecialValuesAndDenormals) {
  const json generated = Generate({{"Floor", {{"T", TF_FLOAT}}}});
  const std::vector<json> cases = CasesOf(generated, "kernel.Floor.float.generated");
  std::set<std::vector<std::int64_t>> shapes;
  std::set<std::string> variants;
  for (const json& kernel_case : cases) {
    EXPECT_TRUE(kernel_case.at("generated").get<bool>());
    EXPECT_EQ(kernel_case.at("attrs").at("T").at("type"), TF_FLOAT);
    shapes.insert(kernel_case.at("inputs").at(0).at("shape").get<std::vector<std::int64_t>>());
    variants.insert(kernel_case.at("variant").get<std::string>());
  }
  for (const std::vector<std::int64_t>& shape :
       std::vector<std::vector<std::int64_t>>{{}, {7}, {3, 5}, {2, 0, 3}, {2, 3, 1, 5}}) {
    EXPECT_TRUE(shapes.contains(shape)) << json(shape).dump();
  }
  EXPECT_TRUE(variants.contains("special values"));
  EXPECT_TRUE(variants.contains("denormals"));
  EXPECT_TRUE(variants.contains("denormals flushed to zero"));
  // The special values' first element is float NaN (0x7fc00000, little-endian).
  for (const json& kernel_case : cases) {
    if (kernel_case.at("variant") == "special values") {
      EXPECT_EQ(kernel_case.at("inputs").at(0).at("hex").get<std::string>().substr(0, 8),
                "0000c07f");
    }
  }
  EXPECT_TRUE(generated.at("not_generated").empty());
}

TEST(GeneratedCases, ValuesFollowTheSeed) {
  const auto first_hex = [](const json& generated) {
    return generated.at("cases").at(1).at("inputs").at(0).at("hex").get<std::string>();
  };
  const RegisteredKernel floor{"Floor", {{"T", TF_FLOAT}}};
  EXPECT_EQ(first_hex(Generate({floor}, 1)), first_hex(Generate({floor}, 1)));
  EXPECT_NE(first_hex(Generate({floor}, 1)), first_hex(Generate({floor}, 2)));
}

TEST(GeneratedCases, ACellAScenarioCoversGetsNone) {
  KernelScenario scenario;
  scenario.op = "Floor";
  scenario.dtypes = {TF_FLOAT};
  const json generated =
      Generate({{"Floor", {{"T", TF_FLOAT}}}, {"Floor", {{"T", TF_DOUBLE}}}}, 1, {scenario});
  EXPECT_TRUE(CasesOf(generated, "kernel.Floor.float.generated").empty());
  EXPECT_FALSE(CasesOf(generated, "kernel.Floor.double.generated").empty());
}

TEST(GeneratedCases, BoolAttrsAreFlippedAndListInputsGetTwoTensors) {
  const json equal = Generate({{"Equal", {{"T", TF_INT32}}}});
  bool flipped = false;
  for (const json& kernel_case : CasesOf(equal, "kernel.Equal.int32.generated")) {
    flipped |= kernel_case.at("attrs").contains("incompatible_shape_error") &&
               kernel_case.at("attrs").at("incompatible_shape_error").at("b") == false;
  }
  EXPECT_TRUE(flipped);
  const json add_n = Generate({{"AddN", {{"T", TF_FLOAT}}}});
  const json first = CasesOf(add_n, "kernel.AddN.float.generated").at(0);
  EXPECT_EQ(first.at("attrs").at("N").at("i"), 2);
  EXPECT_EQ(first.at("inputs").size(), 2u);
}

TEST(GeneratedCases, InputsThatMustRelateAreNotGeneratedWithTheReason) {
  const json generated = Generate({{"Sum", {{"T", TF_FLOAT}, {"Tidx", TF_INT32}}}});
  EXPECT_TRUE(generated.at("cases").empty());
  ASSERT_EQ(generated.at("not_generated").size(), 1u);
  const json& cell = generated.at("not_generated").at(0);
  EXPECT_EQ(cell.at("id"), "kernel.Sum.float.generated");
  EXPECT_NE(cell.at("reason").get<std::string>().find("'reduction_indices' is typed by attr Tidx"),
            std::string::npos)
      << cell;
}

// ---- the judgement ----------------------------------------------------------------------------

constexpr const char* kPluginDevice = "/job:localhost/replica:0/task:0/device:REFDEV:0";
constexpr const char* kCpuDevice = "/job:localhost/replica:0/task:0/device:CPU:0";

json FloorCase(int index, const std::string& variant, json extra = json::object()) {
  json kernel_case = {{"id", "kernel.Floor.float.generated"},
                      {"op", "Floor"},
                      {"dtype", "float"},
                      {"scenario", "generated"},
                      {"shape_index", index},
                      {"generated", true},
                      {"variant", variant},
                      {"tolerance", {{"rtol", 0.0}, {"atol", 0.0}, {"ulp", 4}}}};
  for (const auto& [key, value] : extra.items()) kernel_case[key] = value;
  return kernel_case;
}

// One float32 output [1] (hex of its little-endian bytes).
json Output(const std::string& hex, const char* device) {
  return {{"backing_device", device},
          {"outputs", json::array({{{"dtype", 1}, {"shape", {1}}, {"hex", hex}}})}};
}

json Ran(int index, json on_plugin, json on_cpu) {
  return {{"id", "kernel.Floor.float.generated"},
          {"shape_index", index},
          {"plugin", std::move(on_plugin)},
          {"cpu", std::move(on_cpu)}};
}

const char* kMinusTwo = "000000c0";
const char* kMinusThree = "000040c0";
const char* kMinusOne = "000080bf";
const char* kMinusZero = "00000080";

TEST(GeneratedJudgement, AgreementPassesAsAGeneratedCell) {
  const json cases = {{"cases", json::array({FloorCase(0, "rank 0 []")})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output(kMinusThree, kPluginDevice), Output(kMinusThree, kCpuDevice))}));
  ASSERT_EQ(judgement.generated.size(), 1u);
  EXPECT_EQ(judgement.generated[0].id, "kernel.Floor.float.generated");
  EXPECT_EQ(judgement.generated[0].outcome, Outcome::kPass);
  EXPECT_EQ(judgement.summary["cells"]["Floor"]["float"], "generated");
  EXPECT_TRUE(judgement.failures.empty());
}

TEST(GeneratedJudgement, ADisagreementFailsOnTheKernelNamingTheCase) {
  const json cases = {
      {"cases", json::array({FloorCase(0, "rank 1 [7]"), FloorCase(1, "special values")})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output(kMinusTwo, kPluginDevice), Output(kMinusThree, kCpuDevice)),
                   Ran(1, Output(kMinusTwo, kPluginDevice), Output(kMinusThree, kCpuDevice))}));
  ASSERT_EQ(judgement.generated.size(), 1u);  // one result for the cell
  const CheckResult& failure = judgement.generated[0];
  EXPECT_EQ(failure.outcome, Outcome::kFail);
  EXPECT_EQ(failure.details.at("kernel"), "Floor");
  EXPECT_EQ(failure.details.at("failing_call"), "compute_func");
  EXPECT_EQ(failure.details.at("problem"), "wrong values");
  EXPECT_NE(failure.message.find("case rank 1 [7]"), std::string::npos) << failure.message;
  EXPECT_EQ(judgement.summary["cells"]["Floor"]["float"], "disagrees");
}

TEST(GeneratedJudgement, CasesTensorFlowsCpuRejectsAreSkippedWithItsMessage) {
  const json cases = {{"cases", json::array({FloorCase(0, "rank 0 []")})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases, json::array({Ran(0, json{{"not_run", "rejected"}},
                              json{{"error",
                                    {{"call", "TFE_Execute"},
                                     {"code", 3},
                                     {"message", "Input tensor must be at least 2D"}}}})}));
  ASSERT_EQ(judgement.generated.size(), 1u);
  EXPECT_EQ(judgement.generated[0].outcome, Outcome::kSkipped);
  EXPECT_NE(
      judgement.generated[0].message.find("INVALID_ARGUMENT: Input tensor must be at least 2D"),
      std::string::npos)
      << judgement.generated[0].message;
}

TEST(GeneratedJudgement, DenormalsTensorFlowsCpuFlushesAreNotJudged) {
  // The CPU gives -0 for Floor(-denorm_min) and for Floor(-0): it flushed. The plugin's -1 is
  // IEEE's answer, not a defect.
  const json cases = {
      {"cases", json::array({FloorCase(0, "rank 0 []"),
                             FloorCase(1, "denormals", {{"flushed_companion", 2}}),
                             FloorCase(2, "denormals flushed to zero", {{"companion", true}})})}};
  const auto flushed = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output(kMinusThree, kPluginDevice), Output(kMinusThree, kCpuDevice)),
                   Ran(1, Output(kMinusOne, kPluginDevice), Output(kMinusZero, kCpuDevice)),
                   Ran(2, Output(kMinusZero, kPluginDevice), Output(kMinusZero, kCpuDevice))}));
  ASSERT_EQ(flushed.generated.size(), 1u);
  EXPECT_EQ(flushed.generated[0].outcome, Outcome::kPass) << flushed.generated[0].message;
  // Where the CPU keeps denormals (its two results differ), the denormals case is judged.
  const auto kept = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output(kMinusThree, kPluginDevice), Output(kMinusThree, kCpuDevice)),
                   Ran(1, Output(kMinusZero, kPluginDevice), Output(kMinusOne, kCpuDevice)),
                   Ran(2, Output(kMinusZero, kPluginDevice), Output(kMinusZero, kCpuDevice))}));
  EXPECT_EQ(kept.generated[0].outcome, Outcome::kFail);
}

// The driver names the case the process died in: a crash of that kernel, the cell's result.
TEST(GeneratedJudgement, AProcessDyingInACaseIsACrashOfTheKernel) {
  const json cases = {
      {"cases", json::array({FloorCase(0, "rank 0 []"), FloorCase(1, "special values")})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output(kMinusThree, kPluginDevice), Output(kMinusThree, kCpuDevice)),
                   {{"id", "kernel.Floor.float.generated"},
                    {"shape_index", 1},
                    {"died", {{"signal", 11}, {"exit_code", 0}, {"timed_out", false}}}}}));
  ASSERT_EQ(judgement.generated.size(), 1u);
  const CheckResult& crash = judgement.generated[0];
  EXPECT_EQ(crash.outcome, Outcome::kCrash);
  EXPECT_EQ(crash.details.at("kernel"), "Floor");
  EXPECT_NE(crash.message.find("died (signal 11"), std::string::npos) << crash.message;
  EXPECT_NE(crash.message.find("case special values"), std::string::npos) << crash.message;
  EXPECT_EQ(judgement.summary["cells"]["Floor"]["float"], "dies");
  EXPECT_EQ(judgement.summary["disagreements"].size(), 1u);
}

TEST(GeneratedJudgement, CellsNotGeneratedAreNotSupportedWithTheReason) {
  const json cases = {{"cases", json::array()},
                      {"not_generated", json::array({{{"id", "kernel.Sum.float.generated"},
                                                      {"op", "Sum"},
                                                      {"dtype", "float"},
                                                      {"reason", "input 'reduction_indices'"}}})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(cases, json::array());
  ASSERT_EQ(judgement.generated.size(), 1u);
  EXPECT_EQ(judgement.generated[0].outcome, Outcome::kNotSupported);
  EXPECT_NE(judgement.generated[0].message.find("input 'reduction_indices'"), std::string::npos);
}

}  // namespace
}  // namespace conformance::kernels

namespace conformance::kernels {
namespace {

// --tensorflow generates from the installed release's op definitions (installed_cases.h):
// TensorFlow 2.21 added MatMul's grad_a and grad_b, which 2.15.1's MatMul does not define, so
// only the 2.21.0 registry flips them.
bool SetsAttr(const nlohmann::json& generated, const std::string& attr) {
  for (const nlohmann::json& kernel_case : generated.at("cases")) {
    if (kernel_case.at("attrs").contains(attr)) return true;
  }
  return false;
}

TEST(GeneratedCases, FollowTheOpDefinitionsOfTheRegistryTheyAreGivenFrom) {
  const ops::OpRegistry* newest = ops::FindOpRegistry("2.21.0");
  const ops::OpRegistry* older = ops::FindOpRegistry("2.15.1");
  ASSERT_NE(newest, nullptr);
  ASSERT_NE(older, nullptr);
  const std::vector<RegisteredKernel> kernels = {{"MatMul", {{"T", TF_FLOAT}}}};
  const nlohmann::json from_newest = GenerateCases(kernels, {}, *newest, {}, 1);
  const nlohmann::json from_older = GenerateCases(kernels, {}, *older, {}, 1);
  ASSERT_FALSE(from_older.at("cases").empty());
  EXPECT_TRUE(SetsAttr(from_newest, "grad_a"));
  EXPECT_FALSE(SetsAttr(from_older, "grad_a"));
  EXPECT_FALSE(SetsAttr(from_older, "grad_b"));
  EXPECT_TRUE(SetsAttr(from_older, "transpose_a"));  // an attr both releases define
}

}  // namespace
}  // namespace conformance::kernels
