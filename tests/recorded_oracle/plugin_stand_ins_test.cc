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

}  // namespace
}  // namespace conformance::kernels
