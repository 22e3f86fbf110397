// The op families of the generated cases (specs/ops/families/case_families.yaml,
// harness/kernels/case_families.h): the built-in file parses and names real ops, inputs and
// attrs; its cases reach the cells real defects live in (an empty axis, K = 0, values above
// 2^24, NaN, rows over 1024, every output_type) even where a built-in scenario covers the cell;
// its fills hold what they promise; parse errors name file:line:col. What TensorFlow's CPU does
// with the cases is record.families_accepted (read from the record TensorFlow's CPU made).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "kernels/case_families.h"
#include "kernels/dtype_values.h"
#include "kernels/family_fills.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/registry_coverage.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry("2.21.0"); }

HostTensor Decode(const json& input) {
  HostTensor tensor;
  tensor.dtype = DtypeFromName(input.at("dtype").get<std::string>()).value_or(TF_FLOAT);
  tensor.shape = input.at("shape").get<core::Shape>();
  const std::string hex = input.at("hex").get<std::string>();
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    tensor.bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return tensor;
}

// The cell's cases with the built-in scenarios in place (a scenario-covered cell too).
std::vector<json> CellCases(const std::string& op, std::vector<std::pair<std::string, int>> types) {
  const json generated =
      GenerateCases({{op, std::move(types)}}, BuiltinKernelScenarios(), Registry(), {}, 1);
  return generated.at("cases").get<std::vector<json>>();
}

const json* Variant(const std::vector<json>& cases, const std::string& prefix) {
  for (const json& kernel_case : cases) {
    if (kernel_case.at("variant").get<std::string>().starts_with(prefix)) return &kernel_case;
  }
  return nullptr;
}

TEST(CaseFamilies, TheBuiltinFileNamesRegistryOpsTheirInputsAndAttrs) {
  ASSERT_FALSE(BuiltinCaseFamilies().empty());
  for (const CaseFamily& family : BuiltinCaseFamilies()) {
    std::vector<const ops::OpDef*> defs;
    for (const std::string& op : family.ops) {
      const ops::OpDef* def = Registry().Find(op);
      ASSERT_NE(def, nullptr) << family.name << ": " << op;
      defs.push_back(def);
    }
    for (const FamilyCase& family_case : family.cases) {
      // Named copies, not structured bindings: clang-tidy 14 (CI's) cannot capture those.
      for (const auto& entry : family_case.inputs) {
        const std::string& input = entry.first;
        EXPECT_TRUE(std::any_of(defs.begin(), defs.end(),
                                [name = input](const ops::OpDef* d) { return d->FindInput(name); }))
            << family.name << " / " << family_case.variant << ": no op has input " << input;
      }
      for (const auto& entry : family_case.tensor_attrs) {
        EXPECT_TRUE(std::any_of(defs.begin(), defs.end(),
                                [name = entry.first](const ops::OpDef* d) {
                                  const ops::AttrDef* attr = d->FindAttr(name);
                                  return attr != nullptr && attr->type == "tensor";
                                }))
            << family.name << " / " << family_case.variant << ": no op has tensor attr "
            << entry.first;
      }
      for (const auto& item : family_case.attrs.items()) {
        const std::string& attr = item.key();
        EXPECT_TRUE(std::any_of(defs.begin(), defs.end(),
                                [name = attr](const ops::OpDef* d) { return d->FindAttr(name); }))
            << family.name << " / " << family_case.variant << ": no op has attr " << attr;
      }
    }
    for (const std::string& output : family.unjudged_outputs) {
      EXPECT_TRUE(std::any_of(defs.begin(), defs.end(),
                              [&](const ops::OpDef* d) {
                                return std::any_of(d->outputs.begin(), d->outputs.end(),
                                                   [&](const auto& o) { return o.name == output; });
                              }))
          << family.name << ": no op has output " << output;
    }
  }
}

// Batch normalization's reserve spaces are outputs a device fills its own way: marked unjudged
// in every case, while y and the batch statistics are compared; its gradient runs in inference
// mode only, where the reserve spaces it reads are the population mean and variance.
TEST(CaseFamilies, BatchNormReserveSpacesAreNotJudged) {
  const auto forward = CellCases("FusedBatchNormV3", {{"T", TF_HALF}, {"U", TF_FLOAT}});
  ASSERT_FALSE(forward.empty());
  for (const json& kernel_case : forward) {
    const json& outputs = kernel_case.at("outputs");
    ASSERT_EQ(outputs.size(), 6u);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      EXPECT_EQ(outputs[i].value("unjudged", false), i >= 3)
          << kernel_case.value("variant", "") << " output " << outputs[i].dump();
    }
  }
  ASSERT_NE(Variant(forward, "[2,3,3,4] NHWC, is_training=false"), nullptr);
  const auto backward = CellCases("FusedBatchNormGradV3", {{"T", TF_FLOAT}, {"U", TF_FLOAT}});
  ASSERT_FALSE(backward.empty());
  for (const json& kernel_case : backward)
    EXPECT_FALSE(kernel_case.at("attrs").at("is_training").at("b").get<bool>());
}

// A case of an op's error path says the status TensorFlow's CPU gives (CheckNumerics on NaN).
TEST(CaseFamilies, AnErrorPathCaseSaysItsStatus) {
  const auto checked = CellCases("CheckNumerics", {{"T", TF_FLOAT}});
  const json* nan = Variant(checked, "NaN in [9]");
  ASSERT_NE(nan, nullptr);
  EXPECT_EQ(nan->value("cpu_status", ""), "INVALID_ARGUMENT");
  const json* plain = Variant(checked, "[3,5]");
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->contains("cpu_status"));
  EXPECT_TRUE(Variant(CellCases("CheckNumerics", {{"T", TF_INT32}}), "NaN in [9]") == nullptr);
}

// Every family op's cell gets cases (none is left without one), and every case of its families
// that fits the cell's dtype is among them.
TEST(CaseFamilies, EveryFamilyOpGetsEveryCaseThatFitsItsCell) {
  for (const CaseFamily& family : BuiltinCaseFamilies()) {
    for (const std::string& op : family.ops) {
      // Complex and quantized dtypes last: the cell of the ops that allow nothing else (FFT,
      // Dequantize; UniformQuantizedDot qint8 only, UniformQuantizedAdd qint32 only).
      const auto kernels = RegistryKernels(
          *Registry().Find(op),
          {TF_FLOAT, TF_INT32, TF_BOOL, TF_COMPLEX64, TF_QUINT8, TF_QINT8, TF_QINT32}, false);
      ASSERT_FALSE(kernels.empty()) << op;
      const json generated = GenerateCases(kernels, {}, Registry(), {}, 1);
      // A cell no case of the families names (StatefulUniformInt's float draws, its cases
      // being integer ones) is said as such; every other reason is a family that does not fit.
      EXPECT_FALSE(generated.at("cases").empty() && generated.at("not_generated").empty()) << op;
      for (const json& cell : generated.at("not_generated")) {
        EXPECT_TRUE(cell.value("reason", "").starts_with("no case of the op's family is for"))
            << op << cell;
      }
      std::set<std::string> variants;
      for (const json& kernel_case : generated.at("cases"))
        variants.insert(kernel_case.at("variant"));
      for (const FamilyCase& family_case : family.cases) {
        const bool fill_fits = std::all_of(
            family_case.inputs.begin(), family_case.inputs.end(), [](const auto& input) {
              return input.second.fill == "random" || input.second.fill == "distinct" ||
                     input.second.fill == "ones";
            });
        if (fill_fits && family_case.dtypes.empty()) {
          EXPECT_TRUE(variants.contains(family_case.variant)) << op << ": " << family_case.variant;
        }
      }
    }
  }
}

TEST(CaseFamilies, SumOverAnEmptyAxisRunsWhereAScenarioCoversTheCell) {
  const auto cases = CellCases("Sum", {{"T", TF_FLOAT}, {"Tidx", TF_INT32}});
  const json* empty = Variant(cases, "empty axis");
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->at("inputs").at(0).at("shape"), json({3, 0}));
  const HostTensor axes = Decode(empty->at("inputs").at(1));
  EXPECT_EQ(axes.dtype, TF_INT32);
  ASSERT_EQ(axes.NumElements(), 1);
  EXPECT_EQ(axes.At(0), 1.0);
  // Every axis stays within the rank, negative ones too.
  for (const json& kernel_case : cases) {
    const auto rank = static_cast<double>(kernel_case.at("inputs").at(0).at("shape").size());
    const HostTensor reduced = Decode(kernel_case.at("inputs").at(1));
    for (std::int64_t i = 0; i < reduced.NumElements(); ++i) {
      EXPECT_GE(reduced.At(i), -rank) << kernel_case.at("variant");
      EXPECT_LT(reduced.At(i), rank) << kernel_case.at("variant");
    }
  }
}

TEST(CaseFamilies, MatMulHasAnEmptyInnerDimension) {
  const auto cases = CellCases("MatMul", {{"T", TF_FLOAT}});
  const json* empty = Variant(cases, "K = 0");
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->at("inputs").at(0).at("shape"), json({3, 0}));
  EXPECT_EQ(empty->at("inputs").at(1).at("shape"), json({0, 5}));
  // transpose_a is not flipped on shapes that would not multiply: only its own case sets it.
  for (const json& kernel_case : cases) {
    if (kernel_case.at("attrs").contains("transpose_a")) {
      EXPECT_TRUE(kernel_case.at("variant").get<std::string>().starts_with("transpose_a"));
    }
  }
}

TEST(CaseFamilies, ArgMaxRunsEveryAllowedOutputType) {
  const auto cases = CellCases("ArgMax", {{"T", TF_FLOAT}});
  std::set<int> output_types;
  for (const json& kernel_case : cases)
    output_types.insert(kernel_case.at("attrs").at("output_type").at("type").get<int>());
  EXPECT_EQ(output_types, (std::set<int>{TF_INT16, TF_UINT16, TF_INT32, TF_INT64}));
  const json* negative = Variant(cases, "all negative");
  ASSERT_NE(negative, nullptr);
  const HostTensor values = Decode(negative->at("inputs").at(0));
  for (std::int64_t i = 0; i < values.NumElements(); ++i) EXPECT_LT(values.At(i), 0.0);
}

TEST(CaseFamilies, IntegerMaxSeesValuesAbove2To24) {
  const auto cases = CellCases("Max", {{"T", TF_INT32}, {"Tidx", TF_INT32}});
  const json* large = Variant(cases, "values above 2^24");
  ASSERT_NE(large, nullptr);
  const HostTensor values = Decode(large->at("inputs").at(0));
  for (std::int64_t i = 0; i < values.NumElements(); ++i) {
    EXPECT_GT(std::fabs(values.At(i)), 16777216.0);
    EXPECT_NE(static_cast<double>(static_cast<float>(values.At(i))), values.At(i));
  }
  const auto float_max = CellCases("Max", {{"T", TF_FLOAT}, {"Tidx", TF_INT32}});
  EXPECT_EQ(Variant(float_max, "values above 2^24"), nullptr);
}

TEST(CaseFamilies, MaximumMeetsNaNAndSoftmaxWideRowsAndRankFive) {
  const auto maximum = CellCases("Maximum", {{"T", TF_FLOAT}});
  const json* nan = Variant(maximum, "NaN in x");
  ASSERT_NE(nan, nullptr);
  EXPECT_TRUE(std::isnan(Decode(nan->at("inputs").at(0)).At(1)));
  const auto softmax = CellCases("Softmax", {{"T", TF_FLOAT}});
  const json* wide = Variant(softmax, "rows wider than 1024");
  ASSERT_NE(wide, nullptr);
  EXPECT_GT(wide->at("inputs").at(0).at("shape").back().get<int>(), 1024);
  const json* rank5 = Variant(softmax, "rank 5");
  ASSERT_NE(rank5, nullptr);
  EXPECT_EQ(rank5->at("inputs").at(0).at("shape").size(), 5u);
}

TEST(FamilyFills, HoldWhatTheyPromiseOrNothing) {
  const auto distinct = MakeFill("distinct", TF_HALF, {2, 1100}, 7);
  ASSERT_TRUE(distinct.has_value());
  std::set<double> seen;
  for (std::int64_t i = 0; i < distinct->NumElements(); ++i) seen.insert(distinct->At(i));
  EXPECT_EQ(seen.size(), 2200u);
  EXPECT_FALSE(MakeFill("distinct", TF_INT8, {2, 1100}, 7).has_value());
  EXPECT_FALSE(MakeFill("nan", TF_INT32, {3}, 7).has_value());
  EXPECT_FALSE(MakeFill("minus_inf", TF_INT32, {3}, 7).has_value());
  EXPECT_FALSE(MakeFill("above_2_24", TF_FLOAT, {3}, 7).has_value());
  EXPECT_FALSE(MakeFill("negative", TF_UINT8, {3}, 7).has_value());
  const auto ties = MakeFill("ties", TF_BFLOAT16, {8}, 7);
  ASSERT_TRUE(ties.has_value());
  for (std::int64_t i = 0; i < 8; ++i) EXPECT_EQ(std::fabs(std::fmod(ties->At(i), 1.0)), 0.5);
  const auto positive = MakeFill("positive", TF_FLOAT, {50}, 7);
  ASSERT_TRUE(positive.has_value());
  for (std::int64_t i = 0; i < 50; ++i) {
    EXPECT_GE(positive->At(i), 2.0);
    EXPECT_LE(positive->At(i), 12.0);
  }
  const HostTensor ids = MakeIndices({4}, true, TF_INT32, {9}, 3);
  for (std::int64_t i = 0; i < 9; ++i) {
    EXPECT_LT(ids.At(i), 4.0);
    if (i > 0) {
      EXPECT_LE(ids.At(i - 1), ids.At(i));
    }
  }
}

// An optimizer's resource inputs are variables holding the cell's dtype, and each variable's
// value after the step is an output (an op with no outputs of its own is judged by them); the
// accumulators of squares are positive; use_nesterov is flipped on a case of its own.
TEST(CaseFamilies, OptimizerVariablesAreInputsAndOutputs) {
  EXPECT_TRUE(FamiliesMakeVariables(*Registry().Find("ResourceApplyAdam")));
  EXPECT_FALSE(FamiliesMakeVariables(*Registry().Find("Sum")));
  const auto momentum = CellCases("ResourceApplyMomentum", {{"T", TF_FLOAT}});
  ASSERT_FALSE(momentum.empty());
  for (const json& kernel_case : momentum) {
    const json& inputs = kernel_case.at("inputs");
    ASSERT_EQ(inputs.size(), 5u);
    EXPECT_TRUE(inputs.at(0).value("variable", false));  // var
    EXPECT_TRUE(inputs.at(1).value("variable", false));  // accum
    EXPECT_FALSE(inputs.at(2).value("variable", false));
    EXPECT_EQ(inputs.at(0).at("dtype"), "float");
    EXPECT_EQ(kernel_case.at("outputs"), json({{{"name", "var"}, {"variable", true}},
                                               {{"name", "accum"}, {"variable", true}}}));
  }
  const json* nesterov = Variant(momentum, "rank 2 [3,5], use_nesterov=true");
  ASSERT_NE(nesterov, nullptr);
  EXPECT_TRUE(nesterov->at("attrs").at("use_nesterov").at("b").get<bool>());
  const auto adam = CellCases("ResourceApplyAdam", {{"T", TF_HALF}});
  ASSERT_FALSE(adam.empty());
  const HostTensor v = Decode(adam.front().at("inputs").at(2));
  for (std::int64_t i = 0; i < v.NumElements(); ++i) EXPECT_GE(v.At(i), 2.0);
  // TensorFlow's CPU has these kernels for floating dtypes only: no integer cases.
  EXPECT_TRUE(CellCases("ResourceApplyAdam", {{"T", TF_INT32}}).empty());
}

// A variable's own dtype (`dtype:`, specs/ops/families/variable_ops.yaml): StatefulUniform's
// float cell draws from an int64 Philox state of three words, which is read back after the draw;
// ops no attr types (RngSkip, VarIsInitializedOp) are cells of their variable's dtype.
TEST(CaseFamilies, AVariableHoldsTheDtypeItsFamilyGives) {
  const ops::OpDef& uniform = *Registry().Find("StatefulUniform");
  EXPECT_TRUE(FamiliesMakeVariables(uniform));
  EXPECT_EQ(FamiliesVariableDtype(uniform, "resource"), TF_INT64);
  EXPECT_EQ(FamiliesVariableDtype(*Registry().Find("ReadVariableOp"), "resource"), std::nullopt);
  const auto cases = CellCases("StatefulUniform", {{"dtype", TF_FLOAT}});
  ASSERT_FALSE(cases.empty());
  for (const json& kernel_case : cases) {
    const json& state = kernel_case.at("inputs").at(0);
    EXPECT_TRUE(state.value("variable", false));
    EXPECT_EQ(state.at("dtype"), "int64");
    EXPECT_EQ(state.at("shape"), json({3}));
    EXPECT_EQ(kernel_case.at("outputs"),
              json({{{"name", "output"}}, {{"name", "resource"}, {"variable", true}}}));
  }
  EXPECT_EQ(CellDtype({"RngSkip", {}}, Registry().Find("RngSkip")), TF_INT64);
  EXPECT_EQ(CellDtype({"VarIsInitializedOp", {}}, Registry().Find("VarIsInitializedOp")), TF_FLOAT);
  // Without a family, an attr-less resource op still has no dtype the suite has values for.
  EXPECT_EQ(CellDtype({"DestroyResourceOp", {}}, Registry().Find("DestroyResourceOp")),
            TF_RESOURCE);
  EXPECT_FALSE(CellCases("RngSkip", {}).empty());
}

// op_coverage counts an op at the first preferred dtype its families have cases for: float for
// StatefulUniform, int32 for StatefulUniformInt, whose cases are integers only (TensorFlow has
// no float kernel of it), rather than reporting it without cases.
TEST(CaseFamilies, CoverageCountsAFamilyAtACellItHasCasesFor) {
  std::map<std::string, OpCoverage> coverage;
  for (OpCoverage& op : RegistryCoverage(Registry(), 1)) coverage[op.op] = std::move(op);
  EXPECT_EQ(coverage.at("StatefulUniform").dtype, "float");
  EXPECT_GT(coverage.at("StatefulUniformInt").cases, 0u);
  EXPECT_EQ(coverage.at("StatefulUniformInt").dtype, "int32");
  EXPECT_EQ(coverage.at("RngSkip").dtype, "int64");
  EXPECT_EQ(coverage.at("RngSkip").family, "a Philox state variable skipped ahead");
}

// A cell's cases stay bounded (kMaxCasesPerCell in generated_cases.cc, 32), so a 300-op
// plugin's kernel tier stays within a minute: no op of the registry comes near.
TEST(CaseFamilies, NoRegistryCellReachesTheBound) {
  for (const OpCoverage& op : RegistryCoverage(Registry(), 1)) EXPECT_LT(op.cases, 32u) << op.op;
}

// A list input whose count has no default takes the count every case of its families sets
// (_FusedConv3D's num_args: one bias), not the attr's minimum of two.
TEST(CaseFamilies, AListInputTakesTheCountItsFamilySets) {
  const auto cases = CellCases("_FusedConv3D", {{"T", TF_FLOAT}});
  ASSERT_FALSE(cases.empty());
  for (const json& kernel_case : cases) {
    EXPECT_EQ(kernel_case.at("attrs").at("num_args").at("i").get<int>(), 1);
    EXPECT_EQ(kernel_case.at("inputs").size(), 3u) << kernel_case.value("variant", "");
  }
}

std::string ParseError(const std::string& text) {
  const auto parsed = ParseCaseFamilies(text, "f.yaml");
  const auto* error = std::get_if<std::string>(&parsed);
  return error ? *error : "";
}

// An op without inputs is its attrs (source_families.yaml): Const's value is a tensor of the
// cell's dtype, made as an input would be; FakeParam's values are undefined (dtype and shape
// judged); GraphDefVersion's cell is its output's dtype, NoOp's (no dtype at all) float; an op
// without inputs and no family says so.
TEST(CaseFamilies, AnOpWithoutInputsIsItsAttrs) {
  const auto constants = CellCases("Const", {{"dtype", TF_HALF}});
  const json* wide = Variant(constants, "rows wider than 1024");
  ASSERT_NE(wide, nullptr);
  EXPECT_TRUE(wide->at("inputs").empty());
  const json& value = wide->at("attrs").at("value").at("tensor");
  EXPECT_EQ(value.at("dtype"), "half");
  EXPECT_EQ(value.at("shape"), json({2, 1100}));
  EXPECT_EQ(value.at("hex").get<std::string>().size(), 2u * 2 * 2200);
  EXPECT_EQ(wide->at("tolerance").at("ulp"), 0);  // a constant is exact
  const auto fake = CellCases("FakeParam", {{"dtype", TF_FLOAT}});
  ASSERT_FALSE(fake.empty());
  for (const json& kernel_case : fake)
    EXPECT_TRUE(kernel_case.at("outputs").at(0).value("values_undefined", false));
  const auto version = GenerateCases({{"GraphDefVersion", {}}}, {}, Registry(), {}, 1);
  ASSERT_EQ(version.at("cases").size(), 1u);
  EXPECT_EQ(version.at("cases").at(0).at("dtype"), "int32");
  const auto no_op = GenerateCases({{"NoOp", {}}}, {}, Registry(), {}, 1);
  ASSERT_EQ(no_op.at("cases").size(), 1u);
  EXPECT_EQ(no_op.at("cases").at(0).at("dtype"), "float");
  EXPECT_TRUE(no_op.at("cases").at(0).at("outputs").empty());
  const auto abort = GenerateCases({{"Abort", {}}}, {}, Registry(), {}, 1);
  ASSERT_EQ(abort.at("not_generated").size(), 1u);
  EXPECT_EQ(abort.at("not_generated").at(0).at("reason"), "the op has no inputs");
}

TEST(CaseFamilies, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(ParseError("families:\n  - family: x\n    ops: [Sum]\n    cases:\n"
                       "      - variant: v\n        inputs: {input: {shpe: [3]}}\n"),
            "f.yaml:6:26: unknown key 'shpe' in an input (known: below, dtype, fill, hex, shape, "
            "sorted, text, value, variable)");
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Sum]\n    cases:\n"
                       "      - variant: v\n        inputs: {input: {shape: [3], dtype: int64}}\n")
                .find("`dtype:` is a variable's own dtype"),
            std::string::npos);
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Sum]\n    cases:\n"
                       "      - variant: v\n        inputs: {input: {shape: [3], fill: nans}}\n")
                .find("unknown fill 'nans'"),
            std::string::npos);
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Sum]\n    cases:\n"
                       "      - variant: v\n        inputs: {paddings: {value: [[1, 0], [2]]}}\n")
                .find("rows differ"),
            std::string::npos);
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Sum]\n    cases:\n"
                       "      - variant: v\n        inputs: {input: {shape: [3]}}\n"
                       "        cpu_status: INVALID\n")
                .find("`cpu_status:` is a status code name"),
            std::string::npos);
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Sum]\n    unjudged_outputs: y\n"
                       "    cases:\n      - variant: v\n        inputs: {input: {shape: [3]}}\n")
                .find("`unjudged_outputs:` is a list"),
            std::string::npos);
  EXPECT_NE(ParseError("families:\n  - family: x\n    ops: [Const]\n    cases:\n"
                       "      - variant: v\n        inputs: {}\n"
                       "        attrs: {value: {shap: [3]}}\n")
                .find("unknown key 'shap' in an input"),
            std::string::npos);
  std::string many = "families:\n  - family: x\n    ops: [Sum]\n    cases:\n";
  for (int i = 0; i < 17; ++i) many += "      - {variant: v, inputs: {input: {shape: [1]}}}\n";
  EXPECT_NE(ParseError(many).find("at most 16 cases"), std::string::npos);
}

}  // namespace
}  // namespace conformance::kernels
