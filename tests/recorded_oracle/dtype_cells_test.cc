// Cells judged without a record of their own dtype: a kernel registered for every dtype
// (unconstrained_cells.h) at each dtype its op allows, and a cell TensorFlow's CPU lacks
// (borrowed_cells.h) from another dtype's record, converted.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "kernels/borrowed_cells.h"
#include "kernels/dtype_values.h"
#include "kernels/recorded_oracle.h"
#include "kernels/unconstrained_cells.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry(kRecordedRelease); }

bool Has(const std::vector<RegisteredKernel>& kernels, const RegisteredKernel& wanted) {
  return std::any_of(kernels.begin(), kernels.end(), [&](const RegisteredKernel& k) {
    return k.op == wanted.op && k.type_constraints == wanted.type_constraints;
  });
}

TEST(UnconstrainedCellsTest, AKernelOfEveryDtypeIsJudgedAtEachOfTheOpsDtypes) {
  const auto every =
      WithUnconstrainedCells({{"StatelessRandomGetKeyCounter", {}}, {"Bitcast", {}}}, Registry());
  // Tseed's two dtypes, as the record holds them.
  EXPECT_TRUE(Has(every, {"StatelessRandomGetKeyCounter", {{"Tseed", TF_INT32}}}));
  EXPECT_TRUE(Has(every, {"StatelessRandomGetKeyCounter", {{"Tseed", TF_INT64}}}));
  // Bitcast's cells are its input's T; its other attr without a default is fixed.
  EXPECT_TRUE(Has(every, {"Bitcast", {{"T", TF_HALF}, {"type", TF_INT32}}}));
  EXPECT_TRUE(Has(every, {"Bitcast", {{"T", TF_FLOAT}, {"type", TF_INT32}}}));
  EXPECT_FALSE(Has(every, {"Bitcast", {{"T", TF_STRING}, {"type", TF_INT32}}}));
  // The registrations themselves come first, unchanged.
  EXPECT_EQ(every.front().op, "StatelessRandomGetKeyCounter");
  EXPECT_TRUE(every.front().type_constraints.empty());
}

TEST(UnconstrainedCellsTest, ConstrainedKernelsAndOpsWithoutTypeAttrsGainNothing) {
  EXPECT_EQ(WithUnconstrainedCells({{"Bitcast", {{"T", TF_FLOAT}, {"type", TF_INT32}}}}, Registry())
                .size(),
            1u);
  EXPECT_EQ(WithUnconstrainedCells({{"NoOp", {}}, {"NotAnOp", {}}}, Registry()).size(), 2u);
}

TEST(BorrowedCellsTest, ConvertsElementsRoundingToNearest) {
  // float 1.0, 1 + 2^-11 (a tie: to even, 1.0), 1 + 3 * 2^-11 (a tie: up) -> half.
  EXPECT_EQ(ConvertHex("0000803f", TF_FLOAT, TF_HALF), "003c");
  EXPECT_EQ(ConvertHex("0010803f", TF_FLOAT, TF_HALF), "003c");
  EXPECT_EQ(ConvertHex("0030803f", TF_FLOAT, TF_HALF), "023c");
  // int32 -1 and 2 -> int64, exactly.
  EXPECT_EQ(ConvertHex("ffffffff02000000", TF_INT32, TF_INT64), "ffffffffffffffff0200000000000000");
}

TEST(BorrowedCellsTest, OnlyCellsTheCpuLacksAreBorrowed) {
  ASSERT_NE(FindBorrowedCell("AvgPool3D", TF_HALF), nullptr);
  EXPECT_EQ(FindBorrowedCell("AvgPool3D", TF_HALF)->source, TF_FLOAT);
  EXPECT_EQ(FindBorrowedCell("AvgPool3D", TF_FLOAT), nullptr);  // recorded itself
  EXPECT_EQ(FindBorrowedCell("Mod", TF_HALF), nullptr);         // discontinuous: not sound
}

TEST(BorrowedCellsTest, AHalfCellTakesTheFloatCasesAndTheirRecordedResults) {
  const std::vector<RegisteredKernel> registered = {{"AvgPool3D", {{"T", TF_HALF}}}};
  json generated = GenerateCases(registered, {}, Registry(), {}, kRecordedSeed);
  BorrowRejectedCells(generated, registered, Registry(), {});
  ASSERT_FALSE(generated["cases"].empty());
  const RecordedOp record(RecordDirectory(), "AvgPool3D");
  for (const json& kernel_case : generated["cases"]) {
    EXPECT_EQ(kernel_case["id"], "kernel.AvgPool3D.half.generated");
    EXPECT_EQ(kernel_case["dtype"], "half");
    EXPECT_EQ(kernel_case["attrs"]["T"]["type"], TF_HALF);
    EXPECT_EQ(kernel_case["inputs"][0]["dtype"], "half");
    EXPECT_EQ(kernel_case["tolerance"]["atol"], 0.01);  // half's, not float's
    ASSERT_TRUE(kernel_case.contains("borrowed_from"));
    EXPECT_EQ(RecordedAs(kernel_case)["dtype"], "float");
    // The float record has TensorFlow's result, converted to half for the judgement.
    const RecordedCase found = record.Find(RecordedAs(kernel_case));
    ASSERT_EQ(found.kind, RecordedCase::Kind::kResult) << found.reason;
    const json cpu = ResultFor(kernel_case, found.cpu);
    ASSERT_TRUE(cpu.contains("outputs"));
    EXPECT_EQ(cpu["outputs"][0]["dtype"], TF_HALF);
    EXPECT_EQ(cpu["outputs"][0]["hex"].get<std::string>().size() * 2,
              found.cpu["outputs"][0]["hex"].get<std::string>().size());
  }
  // Its own half cases: TensorFlow's CPU refuses every one (what makes the cell borrowed).
  const json own = GenerateCases(registered, {}, Registry(), {}, kRecordedSeed)["cases"];
  for (const json& kernel_case : own) {
    const RecordedCase found = record.Find(kernel_case);
    ASSERT_EQ(found.kind, RecordedCase::Kind::kResult);
    EXPECT_TRUE(found.cpu.contains("error"));
  }
}

TEST(BorrowedCellsTest, ARemovedOpIsJudgedFromItsSuccessorOfTheSameDefinition) {
  const std::vector<RegisteredKernel> registered = {{"BatchMatrixBandPart", {{"T", TF_HALF}}}};
  json generated = GenerateCases(registered, {}, Registry(), {}, kRecordedSeed);
  BorrowRejectedCells(generated, registered, Registry(), {});
  ASSERT_FALSE(generated["cases"].empty());
  const RecordedOp record(RecordDirectory(), "MatrixBandPart");
  for (const json& kernel_case : generated["cases"]) {
    EXPECT_EQ(kernel_case["op"], "BatchMatrixBandPart");
    EXPECT_FALSE(kernel_case["attrs"].contains("Tindex"));  // MatrixBandPart's, not its
    EXPECT_EQ(kernel_case["inputs"][1]["dtype"], "int64");  // num_lower: int64 in both
    EXPECT_EQ(RecordedAs(kernel_case)["op"], "MatrixBandPart");
    const RecordedCase found = record.Find(RecordedAs(kernel_case));
    ASSERT_EQ(found.kind, RecordedCase::Kind::kResult) << found.reason;
    EXPECT_TRUE(found.cpu.contains("outputs"));
  }
  // The definitions match but for the name (and MatrixBandPart's defaulted Tindex).
  const ops::OpDef* removed = Registry().Find("BatchMatrixDiag");
  const ops::OpDef* successor = Registry().Find("MatrixDiag");
  ASSERT_TRUE(removed != nullptr && successor != nullptr);
  ASSERT_EQ(removed->inputs.size(), successor->inputs.size());
  for (std::size_t i = 0; i < removed->inputs.size(); ++i) {
    EXPECT_EQ(removed->inputs[i].name, successor->inputs[i].name);
    EXPECT_EQ(removed->inputs[i].type_attr, successor->inputs[i].type_attr);
  }
}

}  // namespace
}  // namespace conformance::kernels
