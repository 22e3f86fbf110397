// The model scenario language: the built-in models load, and every problem in a vendor's file
// is reported with file:line:column, the key and a did-you-mean, as for the other scenario
// kinds.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "models/model_parser.h"
#include "models/model_scenario_set.h"
#include "scenario/scenario_error.h"

namespace conformance::models {
namespace {

// Every problem of `text`, one "file:line:col: ..." line each.
std::string Problems(const std::string& text) {
  scenario::ErrorList errors("vendor.yaml");
  ParseModelScenarioText(text, "vendor.yaml", errors);
  std::string all;
  for (const auto& error : errors.errors()) all += error.ToString() + "\n";
  return all;
}

const char* kGood = R"(models:
  - name: tiny
    dtypes: [float]
    inputs:
      - {name: x, shape: [2, 3], random: {min: -1, max: 1}}
      - {name: w, shape: [3, 4]}
    nodes:
      - {name: dense, op: MatMul, inputs: [x, w], outputs: [hidden]}
      - {name: act, op: Relu, inputs: [hidden], outputs: [z]}
    outputs: [z]
)";

TEST(ModelParser, BuiltInModelsLoad) {
  const auto models = LoadAllModelScenarios({});
  ASSERT_GE(models.size(), 2u);
  for (const auto& model : models) {
    EXPECT_FALSE(model.rule.empty()) << model.name;
    EXPECT_FALSE(model.nodes.empty()) << model.name;
  }
}

TEST(ModelParser, AGoodFileParses) {
  scenario::ErrorList errors("vendor.yaml");
  const auto models = ParseModelScenarioText(kGood, "vendor.yaml", errors);
  EXPECT_TRUE(errors.empty()) << Problems(kGood);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].nodes.size(), 2u);
  EXPECT_EQ(models[0].Ops(), (std::vector<std::string>{"MatMul", "Relu"}));
  EXPECT_EQ(ModelCheckId("tiny", TF_FLOAT), "model.tiny.float");
}

const char* kVariables = R"(models:
  - name: sgd
    dtypes: [float]
    inputs:
      - {name: lr, shape: [], values: [0.1]}
      - {name: grad, shape: [3]}
    variables:
      - {name: weights, shape: [3], random: {min: -1, max: 1}}
    nodes:
      - {name: twice, op: AddV2, inputs: [weights, weights], outputs: [doubled]}
      - {name: sgd, op: ResourceApplyGradientDescent, inputs: [weights, lr, grad], outputs: []}
    outputs: [doubled, weights]
)";

// A variable feeds a resource argument (its handle) and any other (its value), and may be a
// model output (its value after the step).
TEST(ModelParser, VariablesFeedResourceAndValueArguments) {
  scenario::ErrorList errors("vendor.yaml");
  const auto models = ParseModelScenarioText(kVariables, "vendor.yaml", errors);
  EXPECT_TRUE(errors.empty()) << Problems(kVariables);
  ASSERT_EQ(models.size(), 1u);
  ASSERT_EQ(models[0].variables.size(), 1u);
  EXPECT_NE(models[0].FindVariable("weights"), nullptr);
  EXPECT_EQ(models[0].FindVariable("grad"), nullptr);
}

// Only a variable has a handle: a plain tensor given to a resource argument is an error.
TEST(ModelParser, AResourceArgumentTakesOnlyAVariable) {
  std::string text = kVariables;
  text.replace(text.find("inputs: [weights, lr, grad]"), 27, "inputs: [weight, lr, grad]");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:11:64: key 'inputs': ResourceApplyGradientDescent's input 'var' is a "
            "resource: 'weight' is not one of the model's variables (did you mean 'weights'?)\n");
}

TEST(ModelParser, MisspeltKeySaysWhereAndSuggests) {
  std::string text = kGood;
  text.replace(text.find("    outputs: [z]"), 16, "    outptus: [z]");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:10:5: key 'outptus': unknown key in model (did you mean 'outputs'?); "
            "allowed keys: name, rule, tensorflow, fix, dtypes, steps, inputs, variables, nodes, "
            "outputs, tolerance\n");
}

TEST(ModelParser, UnknownOpSuggestsTheCatalogues) {
  std::string text = kGood;
  text.replace(text.find("op: Relu"), 8, "op: Reluu");
  EXPECT_NE(Problems(text).find("vendor.yaml:9:25: key 'op': 'Reluu' is not an op of the "
                                "catalogue (specs/ops) (did you mean 'Relu'?)"),
            std::string::npos)
      << Problems(text);
}

TEST(ModelParser, UndefinedTensorSuggestsADefinedOne) {
  std::string text = kGood;
  text.replace(text.find("inputs: [hidden]"), 16, "inputs: [hiden]");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:9:40: key 'inputs': tensor 'hiden' is not a model input nor an output of "
            "an earlier node (did you mean 'hidden'?)\n");
}

TEST(ModelParser, InputCountMustMatchTheOp) {
  std::string text = kGood;
  text.replace(text.find("inputs: [x, w]"), 14, "inputs: [x]");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:8:43: key 'inputs': MatMul takes 2 inputs (a, b), got 1\n");
}

TEST(ModelParser, ATensorHasOneProducer) {
  std::string text = kGood;
  text.replace(text.find("outputs: [z]}"), 13, "outputs: [hidden]}");
  text.replace(text.find("    outputs: [z]\n"), 17, "    outputs: [hidden]\n");
  EXPECT_NE(
      Problems(text).find("vendor.yaml:9:59: key 'outputs': tensor 'hidden' is already produced "
                          "at line 8 (every tensor has one producer)"),
      std::string::npos)
      << Problems(text);
}

TEST(ModelParser, UnknownDtypeSuggests) {
  std::string text = kGood;
  text.replace(text.find("dtypes: [float]"), 15, "dtypes: [flaot]");
  EXPECT_NE(Problems(text).find("vendor.yaml:3:14: key 'dtypes': unknown dtype 'flaot' (did you "
                                "mean 'float'?)"),
            std::string::npos)
      << Problems(text);
}

TEST(ModelParser, AModelDefinedTwiceNamesBothPlaces) {
  const auto dir = std::filesystem::temp_directory_path() / "model_parser_test_dup";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.yaml") << kGood;
  std::ofstream(dir / "b.yaml") << kGood;
  try {
    LoadAllModelScenarios({dir.string()});
    ADD_FAILURE() << "no error for a model defined twice";
  } catch (const scenario::ScenarioFilesError& error) {
    ASSERT_EQ(error.errors().size(), 1u);
    EXPECT_NE(error.errors()[0].ToString().find("b.yaml:2:11: key 'name': model 'tiny' is already "
                                                "defined by "),
              std::string::npos)
        << error.errors()[0].ToString();
  }
  std::filesystem::remove_all(dir);
}

// A model without nodes or outputs compares nothing; each of its checks passed (issue 29
// item 11).
TEST(ModelParser, AModelWithoutNodesOrOutputsIsAnError) {
  std::string text = kGood;
  text.replace(text.find("    nodes:\n"), std::string::npos, "    nodes: []\n    outputs: []\n");
  const std::string problems = Problems(text);
  EXPECT_NE(problems.find("vendor.yaml:7:12: key 'nodes': give at least one node: a model without "
                          "nodes runs no kernel"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("vendor.yaml:8:14: key 'outputs': give at least one output: a model "
                          "without outputs compares nothing"),
            std::string::npos)
      << problems;
}

// Attrs are checked against the op's definition, as in kernel scenarios: `transpose_a: 7`
// reached the kernel and the model was skipped (issue 29 item 11).
TEST(ModelParser, AnAttrOfTheWrongTypeSaysWhere) {
  std::string text = kGood;
  text.replace(text.find("outputs: [hidden]}"), 18, "outputs: [hidden], attrs: {transpose_a: 7}}");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:8:78: key 'transpose_a': attr 'transpose_a' of MatMul is a bool, got 7 "
            "(write true or false)\n");
}

TEST(ModelParser, AMisspeltAttrSuggests) {
  std::string text = kGood;
  text.replace(text.find("outputs: [hidden]}"), 18,
               "outputs: [hidden], attrs: {transpose_b: true, tranpose_a: false}}");
  EXPECT_NE(Problems(text).find("vendor.yaml:8:97: key 'tranpose_a': MatMul has no attr "
                                "'tranpose_a' (did you mean 'transpose_a'?); its attrs: "),
            std::string::npos)
      << Problems(text);
}

TEST(ModelParser, AnUnknownTypeAttrSuggests) {
  std::string text = kGood;
  text.replace(text.find("op: Relu,"), 9, "op: Relu, type_attr: TT,");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:9:42: key 'type_attr': Relu has no type attr 'TT'; its type attrs: T\n");
}

// Shapes TensorFlow's shape function refuses are the model's mistake: a MatMul of [2,3] by
// [2,3] was blamed on the plugin's compute_func, which the reference plugin fails too.
TEST(ModelParser, MatMulInnerDimensionsMustMeet) {
  std::string text = kGood;
  text.replace(text.find("shape: [3, 4]"), 13, "shape: [2, 3]");
  EXPECT_EQ(Problems(text),
            "vendor.yaml:8:47: key 'inputs': MatMul node 'dense': inner dimensions differ: x "
            "[2,3] has 3 columns, w [2,3] has 2 rows (did you mean transpose_b: true?); "
            "TensorFlow's shape function refuses the node\n");
  text.replace(text.find("outputs: [hidden]}"), 18,
               "outputs: [hidden], attrs: {transpose_b: true}}");
  EXPECT_EQ(Problems(text), "");
}

TEST(ModelParser, BroadcastingShapesMustBroadcast) {
  std::string text = kGood;
  text.replace(text.find("op: Relu, inputs: [hidden]"), 26, "op: AddV2, inputs: [hidden, x]");
  EXPECT_NE(Problems(text).find("key 'inputs': AddV2 node 'act': hidden [2,4] and x [2,3] do not "
                                "broadcast"),
            std::string::npos)
      << Problems(text);
}

TEST(ModelParser, OnlyFilesWithAModelsKeyAreModelFiles) {
  EXPECT_TRUE(IsModelScenarioText(kGood));
  EXPECT_FALSE(IsModelScenarioText("kernels: []\n"));
  EXPECT_FALSE(IsModelScenarioText("scenarios: []\n"));
}

}  // namespace
}  // namespace conformance::models
