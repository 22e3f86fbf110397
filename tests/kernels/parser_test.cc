// The kernel scenario language: what a valid file turns into, and the exact wording of the
// errors (file:line:col, the key, did-you-mean) a vendor sees for a bad one.
#include <gtest/gtest.h>

#include "kernels/kernel_parser.h"
#include "kernels/kernel_scenario_set.h"

namespace conformance::kernels {
namespace {

std::vector<std::string> Errors(const std::string& text) {
  scenario::ErrorList errors("v.yaml");
  ParseKernelScenarioText(text, "v.yaml", errors);
  std::vector<std::string> lines;
  for (const auto& e : errors.errors()) lines.push_back(e.ToString());
  return lines;
}

constexpr const char* kGood = R"(tensorflow: t
fix: f
kernels:
  - op: AddV2
    name: pairs
    rule: r
    dtypes: [float, double]
    shapes: [[[2], [2]], [[3, 1], [4]]]
    inputs:
      - {name: x, values: [1, nan]}
      - {name: y, random: {min: -1, max: 1, seed_offset: 3}}
    tolerance: {float: {rtol: 0.001, ulp: 2}}
)";

// An op outside the catalogue is checked against TensorFlow's registry when one is given: its
// own inputs, attrs and dtypes apply, and a typo still gets its file:line:col and suggestion.
TEST(KernelParser, RegistryOpOutsideTheCatalogueIsCheckedAgainstTheRegistry) {
  const ops::OpRegistry* registry = ops::FindOpRegistry("2.21.0");
  ASSERT_NE(registry, nullptr);
  const std::string floor = R"(tensorflow: t
fix: f
kernels:
  - op: Floor
    name: literal
    rule: r
    dtypes: [float]
    shapes: [[[2]]]
    inputs: [{name: x, values: [1.5, -1.5]}]
)";
  scenario::ErrorList errors("v.yaml");
  const KernelScenarioFile file = ParseKernelScenarioText(floor, "v.yaml", errors, registry);
  ASSERT_TRUE(errors.empty()) << errors.errors().front().ToString();
  ASSERT_EQ(file.scenarios.size(), 1u);
  EXPECT_EQ(file.scenarios[0].definition, registry->Find("Floor"));
  // Without the registry (the built-in files) only catalogue ops exist.
  EXPECT_EQ(Errors(floor),
            (std::vector<std::string>{"v.yaml:4:9: key 'op': unknown op 'Floor'; kernel "
                                      "scenarios run the ops of the op catalogue (specs/ops)"}));
  std::string wrong = floor;
  wrong.replace(wrong.find("float]"), 5, "int32");  // Floor allows floating dtypes only
  scenario::ErrorList wrong_errors("v.yaml");
  ParseKernelScenarioText(wrong, "v.yaml", wrong_errors, registry);
  ASSERT_EQ(wrong_errors.errors().size(), 1u);
  EXPECT_NE(
      wrong_errors.errors().front().ToString().find("key 'dtypes': Floor does not allow T=int32"),
      std::string::npos)
      << wrong_errors.errors().front().ToString();
}

TEST(KernelParser, ValidFileBecomesScenarios) {
  scenario::ErrorList errors("v.yaml");
  const KernelScenarioFile file = ParseKernelScenarioText(kGood, "v.yaml", errors);
  ASSERT_TRUE(errors.empty()) << errors.errors().front().ToString();
  ASSERT_EQ(file.scenarios.size(), 1u);
  const KernelScenario& s = file.scenarios[0];
  EXPECT_EQ(s.op, "AddV2");
  EXPECT_EQ(s.tensorflow, "t");
  EXPECT_EQ(s.dtypes, (std::vector<TF_DataType>{TF_FLOAT, TF_DOUBLE}));
  ASSERT_EQ(s.shapes.size(), 2u);
  EXPECT_EQ(s.shapes[1][0], (core::Shape{3, 1}));
  EXPECT_EQ(s.inputs[0].fill.kind, InputFill::Kind::kValues);
  EXPECT_EQ(std::get<std::string>(s.inputs[0].fill.values[1]), "nan");
  EXPECT_EQ(s.inputs[1].fill.seed_offset, 3u);
  EXPECT_EQ(s.ToleranceFor(TF_FLOAT).ulp, 2u);
  EXPECT_TRUE(s.ToleranceFor(TF_INT32).exact());
  EXPECT_EQ(s.outputs.size(), 1u);  // one output of the matrix dtype by default
  EXPECT_EQ(KernelCaseId(s.op, TF_DOUBLE, s.name), "kernel.AddV2.double.pairs");
}

// Attr values take the types of the op's attrs: bool, text, list(int), type.
TEST(KernelParser, AttrValuesTakeTheirTypes) {
  scenario::ErrorList errors("v.yaml");
  const KernelScenarioFile file = ParseKernelScenarioText(
      R"(tensorflow: t
fix: f
kernels:
  - op: Conv2D
    name: strided
    rule: r
    dtypes: [float]
    shapes: [[[1, 4, 4, 1], [1, 1, 1, 1]]]
    inputs: [{name: input}, {name: filter}]
    attrs: {use_cudnn_on_gpu: false, padding: SAME, strides: [1, 2, 2, 1]}
  - op: Sum
    name: rows
    rule: r
    dtypes: [float]
    shapes: [[[2, 3], [1]]]
    inputs: [{name: input}, {name: reduction_indices, values: [1], dtype: int64}]
    attrs: {Tidx: {type: int64}}
)",
      "v.yaml", errors);
  ASSERT_TRUE(errors.empty()) << errors.errors().front().ToString();
  ASSERT_EQ(file.scenarios.size(), 2u);
  const core::AttrMap& conv = file.scenarios[0].attrs;
  EXPECT_EQ(std::get<bool>(conv.at("use_cudnn_on_gpu")), false);
  EXPECT_EQ(std::get<std::string>(conv.at("padding")), "SAME");
  EXPECT_EQ(std::get<core::AttrList>(conv.at("strides")).i, (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(std::get<TF_DataType>(file.scenarios[1].attrs.at("Tidx")), TF_INT64);
}

TEST(KernelParser, UnknownKeysGetFileLineColumnAndASuggestion) {
  const auto errors = Errors(
      "kernels:\n  - op: AddV2\n    name: a\n    rule: r\n    tensorflow: t\n    fix: f\n"
      "    dtype: [float]\n    shapes: [[[1]]]\n    inputs: [{name: x}]\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "v.yaml:7:5: key 'dtype': unknown key in kernel scenario (did you mean 'dtypes'?); "
            "allowed keys: op, name, "
            "rule, tensorflow, fix, type_attr, dtypes, shapes, inputs, outputs, attrs, tolerance, "
            "expect");
}

TEST(KernelParser, BadValuesAreNamed) {
  const auto errors = Errors(
      "tensorflow: t\nfix: f\nkernels:\n  - op: addV2\n    name: Bad\n    rule: r\n    dtypes: "
      "[flaot]\n"
      "    shapes: [[[1], [1]]]\n    inputs: [{name: x, values: [nan]}]\n    expect: {error: "
      "INVALID_ARGUMNT}\n");
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(
      errors[0],
      "v.yaml:4:9: key 'op': op names are TensorFlow op names, [A-Z][A-Za-z0-9_]*, got 'addV2'");
  EXPECT_EQ(errors[1], "v.yaml:5:11: key 'name': scenario names are [a-z0-9_]+, got 'Bad'");
  EXPECT_EQ(errors[2].rfind(
                "v.yaml:7:14: key 'dtypes': unknown dtype 'flaot' (did you mean 'float'?)", 0),
            0u);
  EXPECT_EQ(errors[3],
            "v.yaml:8:14: key 'shapes': each entry gives one shape per input (1), got 2 shapes");
  EXPECT_EQ(errors[4],
            "v.yaml:10:21: key 'error': expected a TensorFlow error code name other than OK (did "
            "you mean "
            "'INVALID_ARGUMENT'?)");
}

TEST(KernelParser, SpecialValuesMustExistForEveryDtype) {
  const auto errors = Errors(
      "tensorflow: t\nfix: f\nkernels:\n  - op: Abs\n    name: a\n    rule: r\n"
      "    dtypes: [float, int32]\n    shapes: [[[1]]]\n    inputs: [{name: x, values: [nan]}]\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "v.yaml:9:14: key 'values': 'nan' does not exist for int32");
}

TEST(KernelParser, LiteralExpectationsMustFitTheShape) {
  const auto errors = Errors(
      "tensorflow: t\nfix: f\nkernels:\n  - op: Neg\n    name: a\n    rule: r\n"
      "    dtypes: [float]\n    shapes: [[[2]]]\n    inputs: [{name: x, values: [1, 2]}]\n"
      "    expect: {outputs: [{shape: [2], values: [-1]}]}\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "v.yaml:10:45: key 'values': 1 values for shape [2], which has 2 elements");
}

TEST(KernelParser, MissingTextsAndInvalidYaml) {
  auto errors = Errors(
      "kernels:\n  - op: Neg\n    name: a\n    rule: r\n    dtypes: [float]\n"
      "    shapes: [[[2]]]\n    inputs: [{name: x}]\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0],
            "v.yaml:2:5: key 'tensorflow': missing here and in the file (what TensorFlow does)");
  errors = Errors("kernels: [\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("v.yaml:2:1: invalid YAML", 0), 0u) << errors[0];
}

TEST(KernelParser, KernelFilesAreToldApartFromRuntimeScenarioFiles) {
  EXPECT_TRUE(IsKernelScenarioText(kGood));
  EXPECT_FALSE(IsKernelScenarioText("scenarios: []\n"));
  EXPECT_FALSE(IsKernelScenarioText("kernels: [\n"));
}

// A DT_RESOURCE argument takes a variable (`variable: true`): its dtype, shape and values are
// the input's, and an output of its name reads it after compute.
constexpr const char* kVariable = R"(tensorflow: t
fix: f
kernels:
  - op: ResourceApplyGradientDescent
    name: step
    rule: r
    dtypes: [float]
    shapes: [[[3], [], [3]]]
    inputs:
      - {name: var, variable: true, values: [1, 2, 3]}
      - {name: alpha, values: [0.5]}
      - {name: delta, random: {}}
    outputs: [{name: var}]
)";

TEST(KernelParser, AResourceInputIsAVariableReadBackByName) {
  scenario::ErrorList errors("v.yaml");
  const KernelScenarioFile file = ParseKernelScenarioText(kVariable, "v.yaml", errors);
  ASSERT_TRUE(errors.empty()) << errors.errors().front().ToString();
  ASSERT_EQ(file.scenarios.size(), 1u);
  const KernelScenario& s = file.scenarios[0];
  EXPECT_TRUE(s.inputs[0].variable);
  EXPECT_FALSE(s.inputs[1].variable);
  EXPECT_EQ(s.FindVariable("var"), &s.inputs[0]);
  EXPECT_EQ(s.FindVariable("alpha"), nullptr);
  EXPECT_EQ(s.shapes[0][0], core::Shape{3});
  ASSERT_EQ(s.outputs.size(), 1u);
  EXPECT_EQ(s.outputs[0].name, "var");
}

TEST(KernelParser, VariablesGoOnResourceArgumentsOnly) {
  std::string plain = kVariable;  // the resource argument without `variable: true`
  plain.replace(plain.find("variable: true, "), 16, "");
  EXPECT_EQ(Errors(plain),
            (std::vector<std::string>{
                "v.yaml:10:16: key 'variable': input 'var' of ResourceApplyGradientDescent is a "
                "resource (DT_RESOURCE): it takes a variable's handle; write `variable: true` and "
                "the variable's dtype (default: the matrix dtype), its shape (in shapes) and its "
                "values as for any input"}));
  std::string misplaced = kVariable;  // a variable on a T argument
  misplaced.replace(misplaced.find("{name: alpha,"), 13, "{name: alpha, variable: true,");
  EXPECT_EQ(Errors(misplaced),
            (std::vector<std::string>{
                "v.yaml:11:33: key 'variable': input 'alpha' of ResourceApplyGradientDescent is "
                "a T, not a resource: only a DT_RESOURCE input takes a variable; remove "
                "`variable: true`"}));
  std::string unread = kVariable;  // an op without outputs must say what the case reads
  unread.replace(unread.find("    outputs: [{name: var}]\n"), 27, "");
  EXPECT_EQ(Errors(unread), (std::vector<std::string>{
                                "v.yaml:4:9: key 'outputs': ResourceApplyGradientDescent has no "
                                "outputs; list what the case reads after compute under outputs "
                                "(a variable input's name reads the variable): var"}));
  std::string typo = kVariable;
  typo.replace(typo.find("{name: var}"), 11, "{name: vars}");
  EXPECT_EQ(Errors(typo), (std::vector<std::string>{
                              "v.yaml:13:22: key 'name': ResourceApplyGradientDescent has no "
                              "output 'vars' (did you mean 'var'?); its outputs and variable "
                              "inputs: var"}));
  std::string not_a_flag = kVariable;
  not_a_flag.replace(not_a_flag.find("variable: true"), 14, "variable: yes");
  EXPECT_EQ(Errors(not_a_flag),
            (std::vector<std::string>{"v.yaml:10:31: key 'variable': expected true or false, got "
                                      "'yes'"}));
}

TEST(KernelScenarioSet, BuiltinScenariosLoad) {
  const auto scenarios = BuiltinKernelScenarios();
  EXPECT_GE(scenarios.size(), 8u);
}

}  // namespace
}  // namespace conformance::kernels
