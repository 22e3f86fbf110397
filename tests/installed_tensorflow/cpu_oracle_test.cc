// The judgement of kernel cases run in the installed TensorFlow (harness/kernels/
// tensorflow_cpu_oracle.h), on hand-made driver results: no TensorFlow needed.
#include "kernels/tensorflow_cpu_oracle.h"

#include <gtest/gtest.h>

namespace conformance::kernels {
namespace {

using nlohmann::json;

constexpr const char* kPluginDevice = "/job:localhost/replica:0/task:0/device:REFDEV:0";
constexpr const char* kCpuDevice = "/job:localhost/replica:0/task:0/device:CPU:0";

json Case(int shape_index, double rtol = 0) {
  return {{"id", "kernel.AddV2.float.same_shape"},
          {"op", "AddV2"},
          {"dtype", "float"},
          {"scenario", "same_shape"},
          {"shape_index", shape_index},
          {"tolerance", {{"rtol", rtol}, {"atol", 0.0}, {"ulp", 0}}}};
}

// One float32 output [2]: 1.0 and `second` (hex of its little-endian bytes).
json Output(const std::string& second_hex, const char* device) {
  return {
      {"backing_device", device},
      {"outputs", json::array({{{"dtype", 1}, {"shape", {2}}, {"hex", "0000803f" + second_hex}}})}};
}

json Ran(int shape_index, json on_plugin, json on_cpu) {
  return {{"id", "kernel.AddV2.float.same_shape"},
          {"shape_index", shape_index},
          {"plugin", std::move(on_plugin)},
          {"cpu", std::move(on_cpu)}};
}

json Error(int code, const std::string& message) {
  return {{"error", {{"call", "TFE_Execute"}, {"code", code}, {"message", message}}}};
}

TEST(CpuOracle, EqualResultsAgree) {
  const json cases = {{"cases", json::array({Case(0)})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Output("00000040", kCpuDevice))}));
  EXPECT_EQ(judgement.summary["agree"], 1);
  EXPECT_EQ(judgement.summary["cells"]["AddV2"]["float"], "agrees");
  EXPECT_TRUE(judgement.failures.empty());
}

TEST(CpuOracle, ADifferentValueIsAFailureOnTheOpsKernel) {
  // 2.0 against 2.5: outside an exact tolerance, one failed result for the two shapes.
  const json cases = {{"cases", json::array({Case(0), Case(1)})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Output("00002040", kCpuDevice)),
                   Ran(1, Output("00000040", kPluginDevice), Output("00002040", kCpuDevice))}));
  EXPECT_EQ(judgement.summary["disagreements"].size(), 2u);
  EXPECT_EQ(judgement.summary["cells"]["AddV2"]["float"], "disagrees");
  ASSERT_EQ(judgement.failures.size(), 1u);
  const CheckResult& failure = judgement.failures.front();
  EXPECT_EQ(failure.id, "kernel.AddV2.float.same_shape.in_tensorflow");
  EXPECT_EQ(failure.outcome, Outcome::kFail);
  EXPECT_EQ(failure.details.at("kernel"), "AddV2");
  // The kernel tier's root cause for the same defect: one root cause, not two.
  EXPECT_EQ(failure.details.at("failing_call"), "compute_func");
  EXPECT_EQ(failure.details.at("problem"), "wrong values");
  EXPECT_NE(failure.message.find("TensorFlow's CPU gives 2.5"), std::string::npos)
      << failure.message;
}

// Issue 29 item 16: a value failure inside TensorFlow says what the kernel tier's say: the worst
// element's distance in ULP and relative terms, the tolerance, and the inputs with the seed.
TEST(CpuOracle, AValueFailureCarriesItsDistanceToleranceAndInputs) {
  json with_inputs = Case(0);
  with_inputs["inputs"] = json::array(
      {{{"name", "x"}, {"dtype", "float"}, {"shape", {2}}, {"hex", "0000803f00000040"}}});
  const json cases = {{"seed", 7}, {"cases", json::array({with_inputs})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Output("00002040", kCpuDevice))}));
  ASSERT_EQ(judgement.failures.size(), 1u);
  const CheckResult& failure = judgement.failures.front();
  EXPECT_EQ(failure.details.at("seed"), "7");
  EXPECT_EQ(failure.details.at("tolerance"), "exact");
  EXPECT_EQ(failure.details.at("ulp_distance"), "2097152");  // 2.0 and 2.5 in float
  EXPECT_EQ(failure.details.at("relative_distance"), "0.2");
  EXPECT_EQ(failure.details.at("index"), "[1]");
  EXPECT_EQ(failure.details.at("inputs"), "x: float [2] = 1, 2");
  EXPECT_NE(failure.message.find("1 of 2 element(s) outside the case's tolerance; worst at [1]: "
                                 "2, TensorFlow's CPU gives 2.5 (2097152 ULP, relative 0.2; "
                                 "tolerance exact)"),
            std::string::npos)
      << failure.message;
}

// A case that agrees reports as a pass of its own check, as every selected check does.
TEST(CpuOracle, AnAgreeingCasePasses) {
  const json cases = {{"cases", json::array({Case(0), Case(1)})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Output("00000040", kCpuDevice)),
                   Ran(1, Output("00000040", kPluginDevice), Output("00000040", kCpuDevice))}));
  ASSERT_EQ(judgement.agreements.size(), 1u);
  EXPECT_EQ(judgement.agreements.front().id, "kernel.AddV2.float.same_shape.in_tensorflow");
  EXPECT_EQ(judgement.agreements.front().outcome, Outcome::kPass);
}

// The record writes a large output whose elements are all equal as one element ("every",
// record.py): it stands for the whole tensor, so the plugin's last element is compared too.
TEST(CpuOracle, AnOutputOfOneRepeatedElementStandsForEveryElement) {
  const json cases = {{"cases", json::array({Case(0)})}};
  const auto result = [](const std::string& hex, const char* device) {
    return json{{"backing_device", device},
                {"outputs", json::array({{{"dtype", 1}, {"shape", {3}}, {"hex", hex}}})}};
  };
  const json every = {
      {"backing_device", kCpuDevice},
      {"outputs", json::array({{{"dtype", 1}, {"shape", {3}}, {"every", "0000803f"}}})}};
  const auto same = JudgeAgainstTensorFlowCpu(
      cases, json::array({Ran(0, result("0000803f0000803f0000803f", kPluginDevice), every)}));
  EXPECT_EQ(same.summary["cells"]["AddV2"]["float"], "agrees");
  const auto last_differs = JudgeAgainstTensorFlowCpu(
      cases, json::array({Ran(0, result("0000803f0000803f00000040", kPluginDevice), every)}));
  EXPECT_EQ(last_differs.summary["cells"]["AddV2"]["float"], "disagrees");
}

// An output the case marks unjudged (a family's reserve space, filled the device's own way) is
// not compared; the others still are.
TEST(CpuOracle, AnUnjudgedOutputIsNotCompared) {
  json with_outputs = Case(0);
  with_outputs["outputs"] = json::array({{{"name", "y"}}, {{"name", "r"}, {"unjudged", true}}});
  const json two_outputs = {{"cases", json::array({with_outputs})}};
  const auto Two = [](const std::string& y_hex, const std::string& r_hex, const char* device) {
    json result = Output(y_hex, device);
    result["outputs"].push_back({{"dtype", 1}, {"shape", {1}}, {"hex", r_hex}});
    return result;
  };
  const auto reserve_differs = JudgeAgainstTensorFlowCpu(
      two_outputs, json::array({Ran(0, Two("00000040", "0000803f", kPluginDevice),
                                    Two("00000040", "00002041", kCpuDevice))}));
  EXPECT_TRUE(reserve_differs.failures.empty());
  EXPECT_EQ(reserve_differs.summary["agree"], 1);
  const auto y_differs = JudgeAgainstTensorFlowCpu(
      two_outputs, json::array({Ran(0, Two("00002040", "0000803f", kPluginDevice),
                                    Two("00000040", "0000803f", kCpuDevice))}));
  ASSERT_EQ(y_differs.failures.size(), 1u);
  EXPECT_NE(y_differs.failures.front().message.find("output 0"), std::string::npos)
      << y_differs.failures.front().message;
}

// Issue 29 item 8: the case running when the session's allowance ran out, within its own limit,
// is not judged (the session's timeout says it); over its own limit, it is its kernel's timeout.
TEST(CpuOracle, ASessionOverrunIsNotBlamedOnTheCaseThatRan) {
  const json cases = {{"cases", json::array({Case(0)})}};
  json died = {{"id", "kernel.AddV2.float.same_shape"},
               {"shape_index", 0},
               {"died", {{"timed_out", true}, {"stalled", false}, {"limit_ms", 60000}}}};
  const auto overrun = JudgeAgainstTensorFlowCpu(cases, json::array({died}));
  ASSERT_EQ(overrun.failures.size(), 1u);
  EXPECT_EQ(overrun.failures.front().outcome, Outcome::kSkipped);
  EXPECT_FALSE(overrun.failures.front().details.contains("kernel"));
  died["died"]["stalled"] = true;
  const auto hang = JudgeAgainstTensorFlowCpu(cases, json::array({died}));
  ASSERT_EQ(hang.failures.size(), 1u);
  EXPECT_EQ(hang.failures.front().outcome, Outcome::kTimeout);
  EXPECT_EQ(hang.failures.front().details.at("kernel"), "AddV2");
}

TEST(CpuOracle, TheCasesToleranceApplies) {
  const json cases = {{"cases", json::array({Case(0, 0.25)})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Output("00002040", kCpuDevice))}));
  EXPECT_TRUE(judgement.failures.empty());
  EXPECT_EQ(judgement.summary["agree"], 1);
}

TEST(CpuOracle, NoPluginKernelIsNotADisagreement) {
  const json cases = {{"cases", json::array({Case(0)})}};
  const auto unregistered = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0,
                       Error(3, "Could not satisfy device specification '" +
                                    std::string(kPluginDevice) + "'. enable_soft_placement=0."),
                       Output("00000040", kCpuDevice))}));
  EXPECT_EQ(unregistered.summary["not_on_device"], 1);
  EXPECT_EQ(unregistered.summary["cells"]["AddV2"]["float"], "not_on_device");
  EXPECT_TRUE(unregistered.failures.empty());
  // Placed on the CPU instead: the plugin did not compute it either.
  const auto placed_elsewhere = JudgeAgainstTensorFlowCpu(
      cases, json::array({Ran(0, Output("00000040", kCpuDevice), Output("00000040", kCpuDevice))}));
  EXPECT_EQ(placed_elsewhere.summary["not_on_device"], 1);
}

TEST(CpuOracle, ErrorsAgreeByCode) {
  const json cases = {{"cases", json::array({Case(0)})}};
  EXPECT_TRUE(JudgeAgainstTensorFlowCpu(
                  cases, json::array({Ran(0, Error(3, "ours"), Error(3, "Incompatible shapes"))}))
                  .failures.empty());
  const auto computes = JudgeAgainstTensorFlowCpu(
      cases,
      json::array({Ran(0, Output("00000040", kPluginDevice), Error(3, "Incompatible shapes"))}));
  ASSERT_EQ(computes.failures.size(), 1u);
  EXPECT_NE(computes.failures.front().message.find(
                "on the plugin's device it computes; on TensorFlow's CPU INVALID_ARGUMENT: "
                "Incompatible shapes"),
            std::string::npos)
      << computes.failures.front().message;
}

// A CPU kernel plugin's case (harness/installed_tensorflow/cpu_kernel_plugin.h): both results come
// from TensorFlow's CPU device, with the plugin loaded and in a process without it; the plugin's
// CPU kernels of the op (TF_DataType 1 is float, 3 int32) say whose kernel ran.
json RanOnCpu(json on_plugin, json on_cpu, json plugin_cpu_kernels) {
  json ran = Ran(0, std::move(on_plugin), std::move(on_cpu));
  ran["device_type"] = "CPU";
  ran["op"] = "AddV2";
  ran["plugin_cpu_kernels"] = std::move(plugin_cpu_kernels);
  return ran;
}

TEST(CpuOracle, ACpuKernelPluginsOwnKernelIsJudgedAgainstTheProcessWithoutIt) {
  const json cases = {{"cases", json::array({Case(0)})}};
  const json float_kernel = json::array({{{"priority", 1}, {"label", ""}, {"types", {1}}}});
  const auto agrees = JudgeAgainstTensorFlowCpu(
      cases, json::array({RanOnCpu(Output("00000040", kCpuDevice), Output("00000040", kCpuDevice),
                                   float_kernel)}));
  EXPECT_EQ(agrees.summary["compared"], 1);
  EXPECT_EQ(agrees.summary["agree"], 1);
  EXPECT_EQ(agrees.summary["cpu_kernel_plugin"], true);
  EXPECT_TRUE(agrees.failures.empty());
  const auto wrong = JudgeAgainstTensorFlowCpu(
      cases, json::array({RanOnCpu(Output("00000040", kCpuDevice), Output("00002040", kCpuDevice),
                                   float_kernel)}));
  ASSERT_EQ(wrong.failures.size(), 1u);
  EXPECT_EQ(wrong.failures.front().details.at("kernel"), "AddV2");
  EXPECT_NE(wrong.failures.front().message.find(
                "the plugin's AddV2 CPU kernel (float, case same_shape) disagrees with "
                "TensorFlow's own CPU kernel (run in a process without the plugin)"),
            std::string::npos)
      << wrong.failures.front().message;
}

TEST(CpuOracle, ACpuKernelPluginWithoutAKernelForTheDtypeIsNotJudged) {
  // Its only AddV2 kernel is for int32: TensorFlow's own float kernel ran in both processes, so
  // a difference cannot be the plugin's (and equal results prove nothing of it either).
  const json cases = {{"cases", json::array({Case(0)})}};
  const auto judgement = JudgeAgainstTensorFlowCpu(
      cases, json::array({RanOnCpu(Output("00000040", kCpuDevice), Output("00002040", kCpuDevice),
                                   json::array({{{"priority", 0}, {"types", {3}}}}))}));
  EXPECT_EQ(judgement.summary["compared"], 0);
  EXPECT_EQ(judgement.summary["not_on_device"], 1);
  EXPECT_TRUE(judgement.failures.empty());
}

}  // namespace
}  // namespace conformance::kernels
