// Each variant of the model plugin (model_plugin.cc: the reference plugin with one kernel
// replaced) is run the way a vendor runs it: the models tier must catch it with exactly one
// root cause whose problem names the kernel, and for the defects only a chain of kernels shows,
// the kernel tier on the replaced op must pass (the defect hides from single-op checks). An
// update that never reaches the variable is the exception: the kernel tier's variable cases read
// the variable back, so it catches that one too. One that reaches it only at the host's next
// synchronisation hides from them: only a model whose next training step reads the variable on
// the stream shows it. The variant without a defect passes every model.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct Variant {
  std::string name, op, problem;  // op: the kernel replaced; problem: the models tier's root cause
  // The emulated core: a resource-variable defect needs one that exports the variable C API.
  std::string profile = "newest";
};

void PrintTo(const Variant& v, std::ostream* out) { *out << v.name; }

std::string Shell(const std::string& text) { return "'" + text + "'"; }

// The JSON report of plugin_conformance run on `plugin` with `arguments`. --force-runtime: these
// plugins open the reference plugin in SE_InitPlugin, whose graph-optimizer imports TensorFlow
// 2.15.1 does not export to it, so under --profile tf2.15 the suite says TensorFlow refuses them
// (load.opened_libraries, as 2.15.1 does) and skips the later tiers; the profile is chosen here
// for its variable C API, and the tiers under test must run all the same.
nlohmann::json RunOn(const std::string& plugin, const std::string& label,
                     const std::string& arguments) {
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("model_defect_" + label + "_" + std::to_string(getpid()) + ".json"))
                               .string();
  const std::string command = "PLUGIN_CONFORMANCE_REFERENCE_PLUGIN=" + Shell(REFERENCE_PLUGIN) +
                              " " + Shell(PLUGIN_CONFORMANCE) + " " + Shell(plugin) + " " +
                              arguments + " --force-runtime --json " + Shell(json) +
                              " > /dev/null 2>&1";
  if (std::system(command.c_str()) == -1) return {};
  std::ifstream in(json);
  if (!in) return {};
  nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  return report;
}

nlohmann::json RunTier(const std::string& variant, const std::string& arguments) {
  return RunOn(std::string(MODEL_DEFECTS_DIR) + "/" + variant + ".so", variant, arguments);
}

// The op coverage row of `op` in a report: dtype -> cell state ("passed", "not_run", ...).
std::map<std::string, std::string> CoverageCells(const nlohmann::json& report,
                                                 const std::string& op) {
  std::map<std::string, std::string> cells;
  for (const auto& row : report.value("op_coverage", nlohmann::json::object())
                             .value("ops", nlohmann::json::array())) {
    if (row.value("op", "") != op) continue;
    for (const auto& [dtype, cell] : row.at("cells").items())
      cells[dtype] = cell.value("state", "");
  }
  return cells;
}

class ModelDefect : public testing::TestWithParam<Variant> {};
class OnlyTheModelsTierCatches : public testing::TestWithParam<Variant> {};

TEST_P(OnlyTheModelsTierCatches, HidesFromTheKernelTier) {
  const Variant& v = GetParam();
  const nlohmann::json report = RunTier(
      v.name, "--tier kernels --profile " + v.profile + " --filter 'kernel." + v.op + ".*'");
  ASSERT_TRUE(report.contains("results")) << "no JSON report for " << v.name;
  int passed = 0;
  for (const auto& result : report.at("results")) {
    const std::string outcome = result.at("outcome");
    EXPECT_TRUE(outcome == "pass" || outcome == "not_supported")
        << result.at("id") << " " << outcome << ": " << result.value("message", "");
    passed += outcome == "pass";
  }
  EXPECT_GE(passed, 10);
  if (v.op != "ResourceApplyGradientDescent") return;
  // The variable cases ran (the profile's core exports the variable C API), not just reported
  // not_supported: every one of them, float (the defect's kernel) and double, passed.
  EXPECT_GE(passed, 20);
  EXPECT_EQ(CoverageCells(report, v.op),
            (std::map<std::string, std::string>{{"double", "passed"}, {"float", "passed"}}));
}

TEST_P(ModelDefect, IsCaughtByTheModelsTierWithOneRootCauseNamingTheKernel) {
  const Variant& v = GetParam();
  const nlohmann::json report = RunTier(v.name, "--tier models --profile " + v.profile);
  ASSERT_TRUE(report.contains("results")) << "no JSON report for " << v.name;
  ASSERT_EQ(report.at("root_causes").size(), 1u) << report.at("root_causes").dump(2);
  const auto& cause = report.at("root_causes").at(0);
  EXPECT_EQ(cause.value("call", ""), "compute_func");
  EXPECT_EQ(cause.value("problem", ""), v.problem);
  int failed = 0;
  for (const auto& result : report.at("results")) {
    const std::string outcome = result.at("outcome");
    EXPECT_NE(outcome, "skipped") << result.at("id") << ": " << result.value("message", "");
    if (outcome != "fail") continue;
    ++failed;
    EXPECT_EQ(result.at("details").value("kernel", ""), v.op) << result.at("id");
  }
  EXPECT_GE(failed, 1);
}

const Variant kCacheByBuffers{"cache_by_buffers", "MatMul",
                              "MatMul: stale result for reused buffers"};
const Variant kReadAhead{"read_ahead", "Relu", "Relu: read inputs ahead of the stream"};
const Variant kForwardInPlace{"forward_in_place", "Relu",
                              "Relu: wrote into an input a later node still reads"};
const Variant kUpdatePrivateCopy{"update_private_copy", "ResourceApplyGradientDescent",
                                 "ResourceApplyGradientDescent: variable update did not persist",
                                 "tf2.15"};
const Variant kUpdateOnSync{"update_on_sync", "ResourceApplyGradientDescent",
                            "ResourceApplyGradientDescent: variable update not in stream order",
                            "tf2.16"};

INSTANTIATE_TEST_SUITE_P(Variants, ModelDefect,
                         testing::Values(kCacheByBuffers, kReadAhead, kForwardInPlace,
                                         kUpdatePrivateCopy, kUpdateOnSync),
                         [](const testing::TestParamInfo<Variant>& info) {
                           return info.param.name;
                         });
// forward_in_place no longer hides: the kernel tier's inputs_untouched sees a buffer handed
// back with TF_SetOutput that the core never granted (TF_ForwardInputOrAllocateOutput).
INSTANTIATE_TEST_SUITE_P(Variants, OnlyTheModelsTierCatches,
                         testing::Values(kCacheByBuffers, kReadAhead, kUpdateOnSync),
                         [](const testing::TestParamInfo<Variant>& info) {
                           return info.param.name;
                         });

// The update that never reaches the variable no longer hides from the kernel tier: its cases
// read the variable back after compute (conformance/kernels/variables.yaml). Under a core that
// exports the variable C API the cases whose update changes the variable fail, as one root cause
// on the kernel's compute; those where it stays as it was (alpha 0, empty, the errors) pass.
TEST(ModelDefects, TheKernelTierCatchesALostVariableUpdate) {
  const nlohmann::json report =
      RunTier(kUpdatePrivateCopy.name, "--tier kernels --profile " + kUpdatePrivateCopy.profile +
                                           " --filter 'kernel.ResourceApplyGradientDescent.*'");
  ASSERT_TRUE(report.contains("results"));
  ASSERT_EQ(report.at("root_causes").size(), 1u) << report.at("root_causes").dump(2);
  const auto& cause = report.at("root_causes").at(0);
  EXPECT_EQ(cause.value("call", ""), "compute_func") << cause.dump(2);
  EXPECT_EQ(cause.value("problem", ""), "wrong values") << cause.dump(2);
  ASSERT_FALSE(cause.value("checks", nlohmann::json::array()).empty()) << cause.dump(2);
  for (const auto& check : cause.at("checks"))  // the kernel is named by its checks' ids
    EXPECT_TRUE(check.get<std::string>().starts_with("kernel.ResourceApplyGradientDescent.float."))
        << check;
  std::map<std::string, std::string> outcomes;
  for (const auto& result : report.at("results")) outcomes[result.at("id")] = result.at("outcome");
  for (const char* id : {"kernel.ResourceApplyGradientDescent.float.ranks",
                         "kernel.ResourceApplyGradientDescent.float.use_locking",
                         "kernel.ResourceApplyGradientDescent.float.negative_alpha"})
    EXPECT_EQ(outcomes[id], "fail") << id;
  for (const char* id : {"kernel.ResourceApplyGradientDescent.float.alpha_zero",
                         "kernel.ResourceApplyGradientDescent.float.empty",
                         "kernel.ResourceApplyGradientDescent.float.shape_mismatch"})
    EXPECT_EQ(outcomes[id], "pass") << id;
  const auto cells = CoverageCells(report, "ResourceApplyGradientDescent");
  // The defect replaces the float kernel only; the double one is the reference plugin's.
  EXPECT_EQ(cells, (std::map<std::string, std::string>{{"double", "passed"}, {"float", "failed"}}));
}

// The stream probes blame an update only when its own inputs were right on the stream: a Relu
// that reads ahead makes the gradients, and so the updates, wrong in a chain, and step B then
// reads variables that differ from the sequential run's, yet the one root cause stays the Relu,
// in the two-steps model too (the variable models run under the core of 2.16 to 2.18).
TEST(ModelDefects, AnUpdateFedWrongGradientsIsNotBlamedForWhatItsReadersSee) {
  const nlohmann::json report = RunTier(kReadAhead.name, "--tier models --profile tf2.16");
  ASSERT_TRUE(report.contains("results"));
  ASSERT_EQ(report.at("root_causes").size(), 1u) << report.at("root_causes").dump(2);
  EXPECT_EQ(report.at("root_causes").at(0).value("problem", ""), kReadAhead.problem);
  bool two_steps_failed = false;
  for (const auto& result : report.at("results")) {
    if (result.at("id") != "model.mlp_sgd_two_steps_per_execution.float") continue;
    two_steps_failed = result.at("outcome") == "fail";
    EXPECT_EQ(result.at("details").value("kernel", ""), "Relu") << result.dump(2);
  }
  EXPECT_TRUE(two_steps_failed);
}

// The same cases pass on the plugin without the defect (the reference plugin's kernels) under the
// cores that export the variable C API: 2.15's and that of 2.16 to 2.18. Not on the reference
// plugin itself (it ran under tf2.10 before): every release before 2.19 refuses it for its
// grappler.h imports, so its own import audit fails and no tier can host it, and 2.19 on export
// no variable API.
class VariableCasesPass : public testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(VariableCasesPass, OnThePluginWithoutTheDefect) {
  const auto& [plugin, profile] = GetParam();
  const nlohmann::json report = RunOn(
      plugin, profile,
      "--tier kernels --profile " + profile + " --filter 'kernel.ResourceApplyGradientDescent.*'");
  ASSERT_TRUE(report.contains("results"));
  int passed = 0;
  for (const auto& result : report.at("results")) {
    // Updates of one variable are serialised by TensorFlow: nothing to compute concurrently.
    const bool concurrent = result.at("id").get<std::string>().ends_with(".concurrent_computes");
    EXPECT_EQ(result.at("outcome"), concurrent ? "not_supported" : "pass")
        << result.at("id") << ": " << result.value("message", "");
    passed += result.at("outcome") == "pass";
  }
  EXPECT_GE(passed, 12);
  const auto cells = CoverageCells(report, "ResourceApplyGradientDescent");
  EXPECT_EQ(cells, (std::map<std::string, std::string>{{"double", "passed"}, {"float", "passed"}}));
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, VariableCasesPass,
    testing::Values(
        std::pair<std::string, std::string>{std::string(MODEL_DEFECTS_DIR) + "/good.so", "tf2.15"},
        std::pair<std::string, std::string>{std::string(MODEL_DEFECTS_DIR) + "/good.so", "tf2.16"}),
    [](const auto& info) { return info.param.second == "tf2.16" ? "good_tf2_16" : "good"; });

// Every check of every model passes (under TensorFlow 2.15's core, or another that exports the
// variable C API the training models need); returns the model checks' details by id.
std::map<std::string, nlohmann::json> PassesEveryModel(const std::string& variant,
                                                       const std::string& profile = "tf2.15") {
  const nlohmann::json report = RunTier(variant, "--tier models --profile " + profile);
  std::map<std::string, nlohmann::json> details;
  EXPECT_TRUE(report.contains("results")) << variant;
  if (!report.contains("results")) return details;
  std::set<std::string> models;
  for (const auto& result : report.at("results")) {
    EXPECT_EQ(result.at("outcome"), "pass")
        << result.at("id") << ": " << result.value("message", "");
    const std::string id = result.at("id");
    models.insert(id.substr(0, id.find('.', id.find('.') + 1)));
    details[id] = result.value("details", nlohmann::json::object());
  }
  EXPECT_GE(models.size(), 4u);  // two MLPs and two CNNs at least
  EXPECT_TRUE(models.contains("model.mlp_sgd_step")) << variant;
  EXPECT_TRUE(models.contains("model.mlp_sgd_two_steps_per_execution")) << variant;
  return details;
}

// TensorFlow 2.21 exports no variable C API: the optimizer models cannot run there, on any
// plugin. They say so instead of failing or passing; every other model still passes.
TEST(ModelDefects, TheOptimizerModelIsNotSupportedUnderTheNewestCore) {
  const nlohmann::json report = RunTier("update_private_copy", "--tier models");
  ASSERT_TRUE(report.contains("results"));
  int not_supported = 0;
  for (const auto& result : report.at("results")) {
    const std::string id = result.at("id");
    const std::string message = result.value("message", "");
    if (!id.starts_with("model.mlp_sgd_step.") &&
        !id.starts_with("model.mlp_sgd_two_steps_per_execution.")) {
      EXPECT_EQ(result.at("outcome"), "pass") << id << ": " << message;
      continue;
    }
    ++not_supported;
    EXPECT_EQ(result.at("outcome"), "not_supported") << id;
    EXPECT_NE(message.find("TensorFlow 2.21 (profile newest) exports no resource-variable C API"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("TF_GetInputTensorFromVariable"), std::string::npos) << message;
    EXPECT_NE(message.find("--profile tf2.18 or tf2.17 or tf2.16 or tf2.15"), std::string::npos)
        << message;
  }
  EXPECT_EQ(not_supported, 8);  // two models, four checks each
}

// The kernel tier's variable cases cannot run under 2.21's core either, and say so in the models
// tier's words: the same rule (validate/variable_updates.h), naming the kernel, the missing
// functions and the profiles that run them; the op's other checks are not_supported with it.
TEST(ModelDefects, TheVariableCasesAreNotSupportedUnderTheNewestCoreInTheModelsWords) {
  const nlohmann::json kernels =
      RunTier("good", "--tier kernels --filter 'kernel.ResourceApplyGradientDescent.*'");
  const nlohmann::json models = RunTier("good", "--tier models --filter 'model.mlp_sgd_step.*'");
  ASSERT_TRUE(kernels.contains("results"));
  ASSERT_TRUE(models.contains("results"));
  ASSERT_FALSE(models.at("results").empty());
  const std::string model_message = models.at("results").at(0).value("message", "");
  const std::string shared = model_message.substr(0, model_message.find(", which "));
  EXPECT_NE(shared.find("TensorFlow 2.21 (profile newest) exports no resource-variable C API"),
            std::string::npos)
      << shared;
  EXPECT_NE(shared.find("ResourceApplyGradientDescent"), std::string::npos) << shared;
  int not_supported = 0;
  for (const auto& result : kernels.at("results")) {
    const std::string message = result.value("message", "");
    EXPECT_EQ(result.at("outcome"), "not_supported") << result.at("id") << ": " << message;
    EXPECT_TRUE(message.starts_with(shared + ", which ")) << message << "\nvs\n" << shared;
    EXPECT_NE(message.find("--profile tf2.18 or tf2.17 or tf2.16 or tf2.15"), std::string::npos)
        << message;
    not_supported += result.at("outcome") == "not_supported";
  }
  EXPECT_GE(not_supported, 12);
  // Not run (the core cannot), which is not "not registered": the plugin may well have it.
  const auto cells = CoverageCells(kernels, "ResourceApplyGradientDescent");
  EXPECT_EQ(cells,
            (std::map<std::string, std::string>{{"double", "not_run"}, {"float", "not_run"}}));
}

// The core of 2.16 to 2.18 exports the variable C API too: the training models with the optimizer
// step (one step per execution, and two, the second reading the first's updates on the stream)
// pass there on the reference plugin's kernels. Moved from ModelsTier (tests/models), which ran
// the reference plugin itself under tf2.10: no release loads it and exports the variable API (2.5
// to 2.18 refuse its grappler.h imports, 2.19 on export no variable API), and --force-runtime
// cannot host a plugin whose own imports fail, so its kernels run here, behind good.so.
TEST(ModelDefects, TheOptimizerStepPassesUnderTheCoreOf216To218) {
  const auto details = PassesEveryModel("good", "tf2.16");
  int sgd = 0, two_steps = 0;
  for (const auto& [id, detail] : details) {
    sgd += id.starts_with("model.mlp_sgd_step.float");
    two_steps += id.starts_with("model.mlp_sgd_two_steps_per_execution.float");
  }
  EXPECT_EQ(sgd, 4);
  EXPECT_EQ(two_steps, 4);
}

TEST(ModelDefects, TheDefectFreeVariantPassesEveryModel) {
  auto details = PassesEveryModel("good");
  // Buffers freed after their last use are handed to later nodes, as TensorFlow's allocator does.
  EXPECT_NE(details["model.mlp_forward.float"].value("outputs_in_reused_buffers", "0"), "0")
      << details["model.mlp_forward.float"].dump();
}

// A kernel that asks for its input's buffer gets it when it is the input's last consumer, and
// does not when another node still reads the input (the residual connection).
TEST(ModelDefects, ForwardingIsHonouredOnlyForALastUse) {
  auto details = PassesEveryModel("legal_forwarding");
  EXPECT_NE(
      details["model.mlp_forward.float"].value("outputs_in_an_input_buffer", "").find("relu1"),
      std::string::npos)
      << details["model.mlp_forward.float"].dump();
  EXPECT_EQ(
      details["model.mlp_residual.float"].value("outputs_in_an_input_buffer", "").find("relu1"),
      std::string::npos)
      << details["model.mlp_residual.float"].dump();
}

}  // namespace
