// A plugin-defined op judged through the record of the TensorFlow op it computes
// (plugin_stand_ins.h): only where the plugin's registered definition agrees with TensorFlow's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/plugin_stand_ins.h"
#include "kernels/recorded_oracle.h"
#include "ops/op_builder.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry(kRecordedRelease); }

// _VendorMatMul as tests/kernel_defects/plugin_op_kernels.cc registers it, one line changed.
core::OpRegistration VendorMatMul(const std::string& replaced = "", const std::string& by = "") {
  core::OpRegistration op;
  op.name = "_VendorMatMul";
  op.inputs = {"a: T", "b: T"};
  op.outputs = {"product: T"};
  op.attrs = {"transpose_a: bool = false", "transpose_b: bool = false",
              "T: {half, float}",          "grad_a: bool = false",
              "grad_b: bool = false",      "vendor_fast_path: bool = false"};
  for (auto* specs : {&op.inputs, &op.outputs, &op.attrs}) {
    for (std::string& spec : *specs) {
      if (!replaced.empty() && spec == replaced) spec = by;
    }
  }
  return op;
}

std::string Mismatch(const core::OpRegistration& registration) {
  const ops::OpBuild built = ops::BuildFromRegistration(registration);
  EXPECT_TRUE(built.ok());
  return StandInMismatch(built.op, *Registry().Find("MatMul"), *FindPluginStandIn("_VendorMatMul"));
}

TEST(PluginStandInsTest, OnlyADefinitionThatComputesTheTensorFlowOpStandsForIt) {
  EXPECT_EQ(Mismatch(VendorMatMul()), "");
  EXPECT_EQ(
      Mismatch(VendorMatMul("vendor_fast_path: bool = false", "vendor_fast_path: bool = true")),
      "attr vendor_fast_path defaults to true, not the plain op's false");
  EXPECT_EQ(Mismatch(VendorMatMul("transpose_b: bool = false", "transpose_b: bool = true")),
            "attr transpose_b defaults to true, not false");
  EXPECT_EQ(Mismatch(VendorMatMul("b: T", "weights: T")), "its inputs differ");
  EXPECT_EQ(Mismatch(VendorMatMul("grad_b: bool = false", "fused: bool = false")),
            "it lacks attr grad_b");
  EXPECT_EQ(FindPluginStandIn("MatMul"), nullptr);
}

TEST(PluginStandInsTest, ThePluginOpsCellTakesTheTensorFlowOpsCasesAndRecord) {
  const std::vector<RegisteredKernel> registered = {{"_VendorMatMul", {{"T", TF_FLOAT}}}};
  PluginOps plugin_ops([] { return PluginOpsListing{{VendorMatMul()}, ""}; });
  json generated = GenerateCases(registered, {}, Registry(), {}, kRecordedSeed);
  EXPECT_TRUE(generated["cases"].empty());  // TensorFlow's registry has no _VendorMatMul
  AddStandInCells(generated, registered, Registry(), {}, plugin_ops);
  ASSERT_FALSE(generated["cases"].empty());
  const RecordedOp record(RecordDirectory(), "MatMul");
  for (const json& kernel_case : generated["cases"]) {
    EXPECT_EQ(kernel_case["id"], "kernel._VendorMatMul.float.generated");
    EXPECT_EQ(kernel_case["op"], "_VendorMatMul");
    EXPECT_EQ(kernel_case["attrs"]["vendor_fast_path"]["b"], false);
    EXPECT_NE(kernel_case["variant"].get<std::string>().find("(MatMul's float record)"),
              std::string::npos);
    const RecordedCase found = record.Find(kernel_case["borrowed_from"]);
    ASSERT_EQ(found.kind, RecordedCase::Kind::kResult) << found.reason;
  }
}

TEST(PluginStandInsTest, AnAbsentAttrIsTakenAtItsDefaultOnly) {
  // The registration without grad_a and grad_b: MatMul's cases setting either are left out.
  core::OpRegistration lacking = VendorMatMul();
  std::erase(lacking.attrs, "grad_a: bool = false");
  std::erase(lacking.attrs, "grad_b: bool = false");
  const ops::OpBuild built = ops::BuildFromRegistration(lacking);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(
      StandInMismatch(built.op, *Registry().Find("MatMul"), *FindPluginStandIn("_VendorMatMul")),
      "it lacks attr grad_a");
  // _ITEXBatchMatMulV2's entry says grad_x and grad_y are absent: a definition without them
  // stands for BatchMatMulV2.
  core::OpRegistration itex;
  itex.name = "_ITEXBatchMatMulV2";
  itex.inputs = {"x: T", "y: T"};
  itex.outputs = {"output: T"};
  itex.attrs = {"T: {bfloat16, half, float} = DT_FLOAT", "adj_x: bool = false",
                "adj_y: bool = false", "is_filter_const: bool = false"};
  const std::vector<RegisteredKernel> registered = {{"_ITEXBatchMatMulV2", {{"T", TF_FLOAT}}}};
  PluginOps plugin_ops([&] { return PluginOpsListing{{itex}, ""}; });
  json generated = {{"cases", json::array()}, {"not_generated", json::array()}};
  AddStandInCells(generated, registered, Registry(), {}, plugin_ops);
  ASSERT_FALSE(generated["cases"].empty()) << generated["not_generated"].dump();
  for (const json& kernel_case : generated["cases"]) {
    EXPECT_FALSE(kernel_case["attrs"].contains("grad_x"));
    EXPECT_FALSE(kernel_case["borrowed_from"]["attrs"].value("grad_x", json{{"b", false}})["b"]);
  }
}

// Stand-in cells of `registration` for its float kernel, as AddStandInCells makes them.
json StandInCells(const core::OpRegistration& registration) {
  const std::vector<RegisteredKernel> registered = {{registration.name, {{"T", TF_FLOAT}}}};
  PluginOps plugin_ops([&] { return PluginOpsListing{{registration}, ""}; });
  json generated = {{"cases", json::array()}, {"not_generated", json::array()}};
  AddStandInCells(generated, registered, Registry(), {}, plugin_ops);
  return generated;
}

TEST(PluginStandInsTest, AnInputTheTableRenamesKeepsItsPositionAndType) {
  // ITEX's _ITEXAvgPool reads `input` where AvgPool reads `value`: the table says so.
  core::OpRegistration itex;
  itex.name = "_ITEXAvgPool";
  itex.inputs = {"input: T"};
  itex.outputs = {"output: T"};
  itex.attrs = {"T: {bfloat16, half, float} = DT_FLOAT", "ksize: list(int) >= 4",
                "strides: list(int) >= 4", "data_format: {'NHWC', 'NCHW'} = 'NHWC'",
                "padding: {'SAME', 'VALID'}"};
  const ops::OpRegistry& registry = Registry();
  const PluginStandIn& entry = *FindPluginStandIn("_ITEXAvgPool");
  const auto mismatch = [&](const core::OpRegistration& registration) {
    const ops::OpBuild built = ops::BuildFromRegistration(registration);
    EXPECT_TRUE(built.ok());
    return StandInMismatch(built.op, *registry.Find("AvgPool"), entry);
  };
  EXPECT_EQ(mismatch(itex), "");
  EXPECT_FALSE(StandInCells(itex)["cases"].empty());
  // Another name than the table's, or the renamed input of another type, is not AvgPool.
  core::OpRegistration other_name = itex;
  other_name.inputs = {"images: T"};
  EXPECT_EQ(mismatch(other_name), "its inputs differ");
  core::OpRegistration other_type = itex;
  other_type.inputs = {"input: float"};
  EXPECT_EQ(mismatch(other_type), "its inputs differ");
}

TEST(PluginStandInsTest, AnExplicitAttrIsSetByEveryCaseWhateverThePluginsDefault) {
  // ITEX's _ITEXConv3DBackpropInputV2 defaults dilations to 4 ones: every case sets 5.
  core::OpRegistration itex;
  itex.name = "_ITEXConv3DBackpropInputV2";
  itex.inputs = {"input_sizes: Tshape", "filter: T", "out_backprop: T"};
  itex.outputs = {"output: T"};
  itex.attrs = {"Tshape: {int32, int64} = DT_INT32",
                "T: {bfloat16, half, float}",
                "strides: list(int) >= 5",
                "padding: {'SAME', 'VALID'}",
                "data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'",
                "dilations: list(int) = [1, 1, 1, 1]"};
  const json generated = StandInCells(itex);
  ASSERT_FALSE(generated["cases"].empty()) << generated["not_generated"].dump();
  for (const json& kernel_case : generated["cases"])
    EXPECT_EQ(kernel_case["attrs"]["dilations"]["list_i"].size(), 5U) << kernel_case.dump();
  // Without the table's word the differing default is a mismatch (_VendorMatMul's entry).
  EXPECT_EQ(Mismatch(VendorMatMul("transpose_b: bool = false", "transpose_b: bool = true")),
            "attr transpose_b defaults to true, not false");
}

TEST(PluginStandInsTest, AnExplicitOwnAttrTakesTheTablesValueNotThePluginsDefault) {
  // ITEX's quantized products default is_weight_const to true (cache the weights): every case
  // sets it false, as a case's weights are no graph constant.
  core::OpRegistration itex;
  itex.name = "_ITEXQuantizedMatMulWithBias";
  itex.inputs = {"a: T1",        "b: T2",        "bias: Tbias", "min_a: float",
                 "max_a: float", "min_b: float", "max_b: float"};
  itex.outputs = {"out: Toutput", "min_out: float", "max_out: float"};
  itex.attrs = {"T1: quantizedtype",
                "T2: quantizedtype",
                "Tbias: {float, qint32}",
                "Toutput: quantizedtype = DT_QINT32",
                "transpose_a: bool = false",
                "transpose_b: bool = false",
                "input_quant_mode: {'MIN_FIRST', 'SCALED'} = 'MIN_FIRST'",
                "is_weight_const: bool = true"};
  const ops::OpBuild built = ops::BuildFromRegistration(itex);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(StandInMismatch(built.op, *Registry().Find("QuantizedMatMulWithBias"),
                            *FindPluginStandIn(itex.name)),
            "");
  const std::vector<RegisteredKernel> registered = {
      {itex.name, {{"T1", TF_QUINT8}, {"T2", TF_QINT8}, {"Tbias", TF_FLOAT}}}};
  PluginOps plugin_ops([&] { return PluginOpsListing{{itex}, ""}; });
  json generated = {{"cases", json::array()}, {"not_generated", json::array()}};
  AddStandInCells(generated, registered, Registry(), {}, plugin_ops);
  ASSERT_FALSE(generated["cases"].empty()) << generated["not_generated"].dump();
  for (const json& kernel_case : generated["cases"])
    EXPECT_EQ(kernel_case["attrs"]["is_weight_const"]["b"], false) << kernel_case.dump();
}

}  // namespace
}  // namespace conformance::kernels
