// Cases generated from TensorFlow's op definitions for registered cells no scenario covers
// (harness/kernels/generated_cases.h), and their judgement against TensorFlow's CPU
// (tensorflow_cpu_oracle.h) on hand-made driver results: no TensorFlow needed. What the
// installed TensorFlow does with them is pinned by tests/generated_cases (label `tensorflow`).
#include "kernels/generated_cases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "kernels/dtype_values.h"
#include "kernels/float64_runs.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/tensorflow_cpu_oracle.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// An input of a generated case (case_json.h: dtype name, shape, hex of its bytes).
HostTensor TensorFromJson(const json& input) {
  HostTensor tensor;
  tensor.dtype = DtypeFromName(input.at("dtype").get<std::string>()).value_or(TF_FLOAT);
  tensor.shape = input.at("shape").get<core::Shape>();
  const std::string hex = input.at("hex").get<std::string>();
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    tensor.bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return tensor;
}

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
    const bool wide = kernel_case.at("variant") == "denormals in float64";
    EXPECT_EQ(kernel_case.at("attrs").at("T").at("type"), wide ? TF_DOUBLE : TF_FLOAT);
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

// Float attrs get a legal non-default value too (issue 29 item 10): LeakyRelu's alpha, halved,
// so a kernel that ignores it and computes with the default is caught.
TEST(GeneratedCases, FloatAttrsAreHalved) {
  const json generated = Generate({{"LeakyRelu", {{"T", TF_FLOAT}}}});
  std::vector<std::string> variants;
  for (const json& kernel_case : CasesOf(generated, "kernel.LeakyRelu.float.generated")) {
    if (!kernel_case.at("attrs").contains("alpha")) continue;
    variants.push_back(kernel_case.at("variant"));
    EXPECT_FLOAT_EQ(kernel_case.at("attrs").at("alpha").at("f").get<float>(), 0.1f);
  }
  EXPECT_EQ(variants, std::vector<std::string>{"alpha=0.1 [3,5]"});
}

// The denormals case of a float cell has a float64 companion holding the same values (the
// float denormals as float64 numbers), for where TensorFlow's float CPU kernel is no oracle
// (issue 29 item 7). A double cell has none.
TEST(GeneratedCases, TheDenormalsCaseHasAFloat64Companion) {
  const json generated = Generate({{"Lgamma", {{"T", TF_FLOAT}}}, {"Lgamma", {{"T", TF_DOUBLE}}}});
  std::map<int, json> by_index;
  for (const json& kernel_case : CasesOf(generated, "kernel.Lgamma.float.generated"))
    by_index[kernel_case.at("shape_index").get<int>()] = kernel_case;
  const auto denormals = std::find_if(by_index.begin(), by_index.end(), [](const auto& entry) {
    return entry.second.at("variant") == "denormals";
  });
  ASSERT_NE(denormals, by_index.end());
  const json& wide = by_index.at(denormals->second.at("float64_companion").get<int>());
  EXPECT_EQ(wide.at("variant"), "denormals in float64");
  EXPECT_TRUE(wide.at("companion").get<bool>());
  EXPECT_EQ(wide.at("inputs").at(0).at("dtype"), "double");
  // float's denorm_min, 2^-149, as a double: 0x36a0000000000000 (little-endian).
  EXPECT_EQ(wide.at("inputs").at(0).at("hex").get<std::string>().substr(0, 16), "000000000000a036");
  for (const json& kernel_case : CasesOf(generated, "kernel.Lgamma.double.generated"))
    EXPECT_FALSE(kernel_case.contains("float64_companion")) << kernel_case.at("variant");
}

// A half or bfloat16 case of an op that sums many terms (float64_judged_sums.yaml) carries its
// run in float64: every input of the cell's dtype widened exactly, every attr naming the dtype
// set to double, nothing else changed. A float cell, an op that sums nothing and a companion
// carry none.
TEST(GeneratedCases, AHalfSumCarriesItsRunInFloat64) {
  const json generated = Generate({{"MatMul", {{"T", TF_HALF}}},
                                   {"MatMul", {{"T", TF_FLOAT}}},
                                   {"Sum", {{"T", TF_BFLOAT16}, {"Tidx", TF_INT32}}},
                                   {"Floor", {{"T", TF_HALF}}}});
  const std::vector<json> half = CasesOf(generated, "kernel.MatMul.half.generated");
  ASSERT_FALSE(half.empty());
  for (const json& kernel_case : half) {
    ASSERT_TRUE(kernel_case.contains("float64_run")) << kernel_case.at("variant");
    const json& run = kernel_case.at("float64_run");
    json other_attrs = run.at("attrs");
    EXPECT_EQ(other_attrs.at("T"), (json{{"type", 2}}));
    other_attrs["T"] = kernel_case.at("attrs").at("T");
    EXPECT_EQ(other_attrs, kernel_case.at("attrs"));
    ASSERT_EQ(run.at("inputs").size(), kernel_case.at("inputs").size());
    for (std::size_t i = 0; i < run.at("inputs").size(); ++i) {
      const HostTensor narrow = TensorFromJson(kernel_case.at("inputs").at(i));
      const HostTensor wide = TensorFromJson(run.at("inputs").at(i));
      EXPECT_EQ(wide.dtype, TF_DOUBLE);
      EXPECT_EQ(run.at("inputs").at(i).at("name"), kernel_case.at("inputs").at(i).at("name"));
      ASSERT_EQ(wide.shape, narrow.shape);
      for (std::int64_t e = 0; e < narrow.NumElements(); ++e) {
        if (std::isnan(narrow.At(e))) {
          EXPECT_TRUE(std::isnan(wide.At(e)));
        } else {
          EXPECT_EQ(wide.At(e), narrow.At(e)) << kernel_case.at("variant") << " element " << e;
        }
      }
    }
  }
  const std::vector<json> bfloat16 = CasesOf(generated, "kernel.Sum.bfloat16.generated");
  ASSERT_FALSE(bfloat16.empty());
  for (const json& kernel_case : bfloat16) {
    const json& run = kernel_case.at("float64_run");
    EXPECT_EQ(run.at("attrs").at("Tidx"), (json{{"type", 3}}));  // not the cell's dtype: kept
    EXPECT_EQ(run.at("inputs").at(0).at("dtype"), "double");
    EXPECT_EQ(run.at("inputs").at(1), kernel_case.at("inputs").at(1));  // the int32 axes
  }
  for (const char* id : {"kernel.MatMul.float.generated", "kernel.Floor.half.generated"}) {
    const std::vector<json> cases = CasesOf(generated, id);
    ASSERT_FALSE(cases.empty()) << id;
    for (const json& kernel_case : cases)
      EXPECT_FALSE(kernel_case.contains("float64_run")) << id << " " << kernel_case.at("variant");
  }
  json companion = half.front();
  companion["companion"] = true;
  EXPECT_FALSE(Float64Run(companion).has_value());
}

// ClipByValue's result is defined only for clip_value_min <= clip_value_max (issue 29 item 7):
// every generated case orders its bounds, element by element.
TEST(GeneratedCases, ClipByValueBoundsAreOrdered) {
  const json generated = Generate({{"ClipByValue", {{"T", TF_FLOAT}}}});
  const auto cases = CasesOf(generated, "kernel.ClipByValue.float.generated");
  ASSERT_FALSE(cases.empty());
  std::size_t elements = 0;
  for (const json& kernel_case : cases) {
    const json& inputs = kernel_case.at("inputs");
    ASSERT_EQ(inputs.size(), 3u);
    const HostTensor low = TensorFromJson(inputs.at(1));
    const HostTensor high = TensorFromJson(inputs.at(2));
    for (std::int64_t i = 0; i < low.NumElements(); ++i) {
      EXPECT_LE(low.At(i), high.At(i)) << kernel_case.at("variant") << " element " << i;
      ++elements;
    }
  }
  EXPECT_GT(elements, 50u);
}

TEST(GeneratedCases, InputsThatMustRelateAreNotGeneratedWithTheReason) {
  // XlaScatter's indices are typed by Tindices (no family says how their values relate to the
  // operand's; its update_computation is a function no case can give. RaggedTensorToTensor and
  // RiscReshape, the examples before, have a family and no kernel anywhere now).
  const json generated = Generate({{"XlaScatter", {{"T", TF_FLOAT}, {"Tindices", TF_INT32}}}});
  EXPECT_TRUE(generated.at("cases").empty());
  ASSERT_EQ(generated.at("not_generated").size(), 1u);
  const json& cell = generated.at("not_generated").at(0);
  EXPECT_EQ(cell.at("id"), "kernel.XlaScatter.float.generated");
  EXPECT_NE(
      cell.at("reason").get<std::string>().find("'scatter_indices' is typed by attr Tindices"),
      std::string::npos)
      << cell;
}

// An op no input makes TensorFlow's CPU an oracle for says why instead (no_cpu_oracle.h).
TEST(GeneratedCases, AnOpWithoutACpuOracleSaysWhy) {
  const json generated = Generate({{"_FusedBatchNormGradEx", {{"T", TF_FLOAT}, {"U", TF_FLOAT}}}});
  EXPECT_TRUE(generated.at("cases").empty());
  ASSERT_EQ(generated.at("not_generated").size(), 1u);
  EXPECT_NE(generated.at("not_generated")
                .at(0)
                .at("reason")
                .get<std::string>()
                .find("registers its kernels for GPUs only"),
            std::string::npos);
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

// Lgamma of float denormals: TensorFlow's CPU gives 103.97 for each, float64 gives 103.28 and
// the CPU gives +inf for zeros (issue 29 item 7). The CPU is no oracle there: an exact kernel
// (float64's value) and a flushing one (+inf) pass, one giving 0 fails.
TEST(GeneratedJudgement, DenormalsWhereTheCpuIsNoOracleAreJudgedAgainstFloat64) {
  const char* kCpuValue = "b4f1cf42";  // 103.97208f
  const char* kExact = "d08ece42";     // 103.27893f
  const char* kInfinity = "0000807f";  // +inf
  const char* kZero = "00000000";
  const json wide_output = {
      {"backing_device", kCpuDevice},
      {"outputs",
       json::array(
           {{{"dtype", TF_DOUBLE}, {"shape", {1}}, {"hex", "6d47cffcd9d15940"}}})}};  // 103.2789
  const json cases = {
      {"cases",
       json::array({FloorCase(0, "rank 0 []"),
                    FloorCase(1, "denormals", {{"flushed_companion", 2}, {"float64_companion", 3}}),
                    FloorCase(2, "denormals flushed to zero", {{"companion", true}}),
                    FloorCase(3, "denormals in float64", {{"companion", true}})})}};
  const auto judge = [&](const char* on_plugin) {
    return JudgeAgainstTensorFlowCpu(
        cases,
        json::array({Ran(0, Output(kMinusThree, kPluginDevice), Output(kMinusThree, kCpuDevice)),
                     Ran(1, Output(on_plugin, kPluginDevice), Output(kCpuValue, kCpuDevice)),
                     Ran(2, Output(kInfinity, kPluginDevice), Output(kInfinity, kCpuDevice)),
                     Ran(3, json{{"not_run", "no double kernel"}}, wide_output)}));
  };
  const auto exact = judge(kExact);
  ASSERT_EQ(exact.generated.size(), 1u);
  EXPECT_EQ(exact.generated[0].outcome, Outcome::kPass) << exact.generated[0].message;
  EXPECT_NE(exact.generated[0].message.find("judged against float64"), std::string::npos)
      << exact.generated[0].message;
  EXPECT_EQ(judge(kInfinity).generated[0].outcome, Outcome::kPass);
  const auto wrong = judge(kZero);
  EXPECT_EQ(wrong.generated[0].outcome, Outcome::kFail);
  EXPECT_NE(wrong.generated[0].message.find("no oracle for this case"), std::string::npos)
      << wrong.generated[0].message;
  // The plugin agreeing with the CPU is never a failure.
  EXPECT_EQ(judge(kCpuValue).generated[0].outcome, Outcome::kPass);
}

// --tensorflow runs a half sum's float64 run (float64_runs.h) on the installed TensorFlow's CPU
// and hands it back in double: the judge rounds it to half. Under 2.15.1, whose CPU sums half
// in half (8.5 where the terms sum to 10), a plugin summing in float (10) passes; one agreeing
// with neither fails and says so; where the float64 run failed, only the CPU's value agrees.
TEST(GeneratedJudgement, AHalfSumRunInFloat64InsideTensorFlowIsRoundedAndAgreedWith) {
  const json kernel_case = {{"id", "kernel.Sum.half.generated"},
                            {"op", "Sum"},
                            {"dtype", "half"},
                            {"scenario", "generated"},
                            {"shape_index", 0},
                            {"generated", true},
                            {"variant", "1100 terms"},
                            {"tolerance", {{"rtol", 0.004}, {"atol", 0.25}, {"ulp", 0}}}};
  const auto half = [](const char* hex, const char* device) {
    return json{{"backing_device", device},
                {"outputs", json::array({{{"dtype", TF_HALF}, {"shape", {1}}, {"hex", hex}}})}};
  };
  const json wide = {
      {"backing_device", kCpuDevice},
      {"outputs",
       json::array(
           {{{"dtype", TF_DOUBLE}, {"shape", {1}}, {"hex", "0000000000002440"}}})}};  // 10.0
  const auto judge = [&](const char* on_plugin, const json& float64) {
    json ran = {{"id", "kernel.Sum.half.generated"},
                {"shape_index", 0},
                {"plugin", half(on_plugin, kPluginDevice)},
                {"cpu", half("4048", kCpuDevice)}};  // 8.5
    if (!float64.is_null()) ran["float64"] = float64;
    const auto judgement =
        JudgeAgainstTensorFlowCpu({{"cases", json::array({kernel_case})}}, json::array({ran}));
    EXPECT_EQ(judgement.generated.size(), 1u);
    return judgement.generated.empty() ? CheckResult{} : judgement.generated.front();
  };
  const CheckResult in_float = judge("0049", wide);  // 10
  EXPECT_EQ(in_float.outcome, Outcome::kPass) << in_float.message;
  EXPECT_NE(in_float.message.find("the case run in float64 instead"), std::string::npos)
      << in_float.message;
  EXPECT_EQ(judge("4048", wide).outcome, Outcome::kPass);  // the CPU's own sum
  const CheckResult wrong = judge("004a", wide);           // 12
  EXPECT_EQ(wrong.outcome, Outcome::kFail);
  EXPECT_NE(wrong.message.find("nor does it agree with the same case run in float64"),
            std::string::npos)
      << wrong.message;
  const json refused = {{"error", {{"call", "TFE_Execute"}, {"code", 5}, {"message", "no"}}}};
  EXPECT_EQ(judge("0049", refused).outcome, Outcome::kFail);
  EXPECT_EQ(judge("0049", nullptr).outcome, Outcome::kFail);
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
