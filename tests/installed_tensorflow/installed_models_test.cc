// The models --tensorflow runs as graphs in the installed TensorFlow, judged from the driver's
// "model_graphs" (harness/models/installed_model_graphs.h), and the verdict block's line for
// them (installed_verdict.h). What the driver really reports is pinned by model_graphs_test.py.
#include "models/installed_model_graphs.h"

#include <gtest/gtest.h>

#include "installed_tensorflow/installed_verdict.h"

namespace conformance::models {
namespace {

using nlohmann::json;

json Entry(const std::string& model, json plugin, json extra) {
  json entry = {{"model", model},
                {"dtype", "float"},
                {"plugin", std::move(plugin)},
                {"cpu", {{"device", "CPU:0"}}},
                {"rewritten", json::object()},
                {"plugin_ops_ran", json::object()}};
  entry.update(extra);
  return entry;
}

TEST(InstalledModelGraphsTest, EachModelBecomesOneResultOfTheModelsTier) {
  const json graphs = json::array(
      {Entry("mlp_forward", {{"device", "CPU:0"}},
             {{"agree", true},
              {"rewritten", {{"_ZenFusedMatMul", 2}, {"_ZenSoftmax", 1}}},
              {"plugin_ops_ran", {{"_ZenFusedMatMul", 2}, {"_ZenSoftmax", 1}}}}),
       Entry("mlp_residual", {{"device", "REFDEV:0"}},
             {{"agree", false}, {"difference", "step 1, output 'probs': element [0] 1, 2"}}),
       Entry("cnn_max_pool", {{"died", true}}, json::object()),
       Entry("cnn_global_average",
             {{"error", {{"call", "TF_SessionRun"}, {"code", 3}, {"message", "no kernel"}}}},
             json::object()),
       Entry("mlp_sgd_step", {{"not_run", "variables"}}, json::object())});
  const InstalledModelJudgement judgement = JudgeInstalledModelGraphs(graphs);
  ASSERT_EQ(judgement.results.size(), 5u);
  EXPECT_EQ(judgement.results[0].id, "model.mlp_forward.float.installed");
  EXPECT_EQ(judgement.results[0].tier, "models");
  EXPECT_EQ(judgement.results[0].outcome, Outcome::kPass);
  EXPECT_NE(judgement.results[0].message.find("graph rewritten: 2 _ZenFusedMatMul, 1 _ZenSoftmax"),
            std::string::npos);
  EXPECT_EQ(judgement.results[1].outcome, Outcome::kFail);
  EXPECT_NE(judgement.results[1].message.find("mlp_residual"), std::string::npos);
  EXPECT_NE(judgement.results[1].message.find("step 1, output 'probs'"), std::string::npos);
  EXPECT_EQ(judgement.results[1].details.at("failing_call"), "compute_func");
  EXPECT_EQ(judgement.results[2].outcome, Outcome::kCrash);
  EXPECT_EQ(judgement.results[3].outcome, Outcome::kNotSupported);
  EXPECT_NE(judgement.results[3].message.find("TF_SessionRun: no kernel"), std::string::npos);
  EXPECT_EQ(judgement.results[4].outcome, Outcome::kNotSupported);
  EXPECT_EQ(judgement.summary.value("agree", 0), 1);
  EXPECT_EQ(judgement.summary.value("disagree", 0), 1);
  EXPECT_EQ(judgement.summary.value("not_run", 0), 2);
  EXPECT_EQ(judgement.summary.value("plugin_nodes_ran", 0), 3);
  EXPECT_EQ(judgement.summary["rewritten"].value("_ZenFusedMatMul", 0), 2);
}

// The driver's `death` of the model the plugin's process died in (driver_main.cc): a hang is
// that model's timeout, not a crash; the session's allowance running out blames no model.
TEST(InstalledModelGraphsTest, AModelThatHangsIsATimeoutAndOneThatCrashesACrash) {
  const json graphs = json::array(
      {Entry("mlp_forward",
             {{"died", true},
              {"death",
               {{"how", "died of signal 11 (SIGSEGV)"}, {"timed_out", false}, {"signal", 11}}}},
             json::object()),
       Entry("mlp_residual",
             {{"died", true},
              {"death",
               {{"how",
                 "made no progress for 5000 ms (the per-step limit, --timeout) and was "
                 "killed"},
                {"timed_out", true},
                {"stalled", true}}}},
             json::object()),
       Entry("cnn_max_pool",
             {{"died", true},
              {"death",
               {{"how", "outlived the session's 90000 ms and was killed"},
                {"timed_out", true},
                {"stalled", false}}}},
             json::object())});
  const InstalledModelJudgement judgement = JudgeInstalledModelGraphs(graphs);
  ASSERT_EQ(judgement.results.size(), 3u);
  EXPECT_EQ(judgement.results[0].outcome, Outcome::kCrash);
  EXPECT_NE(judgement.results[0].message.find("SIGSEGV"), std::string::npos);
  EXPECT_NE(judgement.results[0].message.find("installed TensorFlow ran model mlp_forward"),
            std::string::npos);
  EXPECT_EQ(judgement.results[1].outcome, Outcome::kTimeout);
  EXPECT_NE(judgement.results[1].message.find("5000 ms"), std::string::npos);
  EXPECT_EQ(judgement.results[1].details.at("failing_call"), "compute_func");
  EXPECT_EQ(judgement.results[2].outcome, Outcome::kSkipped);
  EXPECT_NE(judgement.results[2].message.find("runtime.session.in_tensorflow"), std::string::npos);
}

TEST(InstalledModelGraphsTest, TheVerdictLineSaysWhatThePluginRewrote) {
  const json rewritten = {
      {"models", 6},           {"agree", 5},
      {"disagree", 0},         {"not_run", 1},
      {"plugin_nodes_ran", 3}, {"rewritten", {{"_ZenFusedMatMul", 2}, {"_ZenSoftmax", 1}}}};
  EXPECT_EQ(tensorflow_driver::InstalledModelsSummary(rewritten),
            "models as graphs: 5 of 6 agree with TensorFlow's own kernels; graph rewritten: 2 "
            "nodes became _ZenFusedMatMul, 1 nodes became _ZenSoftmax (3 nodes of the plugin's "
            "ops ran); 1 not run (each result says why)");
  const json untouched = {
      {"models", 5}, {"agree", 4}, {"disagree", 1}, {"rewritten", json::object()}};
  EXPECT_EQ(tensorflow_driver::InstalledModelsSummary(untouched),
            "models as graphs: 4 of 5 agree with TensorFlow's own kernels, 1 disagree; no graph "
            "was rewritten into ops of the plugin");
}

TEST(InstalledModelGraphsTest, TheDumpCarriesEveryBuiltInModelWithItsStepInputs) {
  const json dump = InstalledModelGraphsDump({}, 7);
  ASSERT_GE(dump["models"].size(), 6u);
  for (const json& model : dump["models"]) {
    EXPECT_EQ(model["steps"].size(), 2u) << model["model"];
    EXPECT_EQ(model["steps"][0]["inputs"].size(), model["inputs"].size()) << model["model"];
    EXPECT_FALSE(model["nodes"].empty());
  }
}

}  // namespace
}  // namespace conformance::models
