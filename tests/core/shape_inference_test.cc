// ops.h shape-inference helpers on an InferenceContext, with TensorFlow's messages.
#include <string>

#include <gtest/gtest.h>

#include "core/shape_inference.h"
#include "tensorflow/c/ops.h"

namespace conformance::core {
namespace {

class ShapeInferenceTest : public ::testing::Test {
 protected:
  ~ShapeInferenceTest() override {
    TF_DeleteShapeHandle(h_);
    TF_DeleteShapeHandle(r_);
    TF_DeleteDimensionHandle(d_);
    TF_DeleteStatus(s_);
  }
  TF_ShapeInferenceContext* c() { return ctx_.c_handle(); }

  InferenceContext ctx_{
      "node",
      {PartialShape::Of({2, 3, -1}), PartialShape::Unknown(), PartialShape::Of({})},
      2,
      AttrMap{{"T", TF_HALF}}};
  TF_ShapeHandle* h_ = TF_NewShapeHandle();
  TF_ShapeHandle* r_ = TF_NewShapeHandle();
  TF_DimensionHandle* d_ = TF_NewDimensionHandle();
  TF_Status* s_ = TF_NewStatus();
};

TEST_F(ShapeInferenceTest, InputsAndRanks) {
  EXPECT_EQ(TF_ShapeInferenceContextNumInputs(c()), 3);
  EXPECT_EQ(TF_ShapeInferenceContextRank(c(), h_), -1);  // fresh handle: unknown
  TF_ShapeInferenceContextGetInput(c(), 0, h_, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(TF_ShapeInferenceContextRank(c(), h_), 3);
  EXPECT_EQ(TF_ShapeInferenceContextRankKnown(c(), h_), 1);
  TF_ShapeInferenceContextGetInput(c(), 3, h_, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "input index out of range");
  TF_ShapeInferenceContextGetInput(c(), 1, h_, s_);
  EXPECT_EQ(TF_ShapeInferenceContextRankKnown(c(), h_), 0);
}

TEST_F(ShapeInferenceTest, Dims) {
  TF_ShapeInferenceContextGetInput(c(), 0, h_, s_);
  TF_ShapeInferenceContextDim(c(), h_, 1, d_);
  EXPECT_EQ(TF_DimensionHandleValueKnown(d_), 1);
  EXPECT_EQ(TF_DimensionHandleValue(d_), 3);
  TF_ShapeInferenceContextDim(c(), h_, -1, d_);
  EXPECT_EQ(TF_DimensionHandleValueKnown(d_), 0);
  EXPECT_EQ(TF_DimensionHandleValue(d_), -1);
  TF_ShapeInferenceContextDim(c(), h_, 5, d_);  // out of range: unset, not a crash
  EXPECT_EQ(TF_DimensionHandleValueKnown(d_), 0);
}

TEST_F(ShapeInferenceTest, WithRankFamily) {
  TF_ShapeInferenceContextGetInput(c(), 0, h_, s_);
  TF_ShapeInferenceContextWithRank(c(), h_, 3, r_, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  TF_ShapeInferenceContextWithRank(c(), h_, 2, r_, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Shape must be rank 2 but is rank 3");
  TF_ShapeInferenceContextWithRankAtLeast(c(), h_, 4, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "Shape must be at least rank 4 but is rank 3");
  TF_ShapeInferenceContextWithRankAtMost(c(), h_, 1, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "Shape must be at most rank 1 but is rank 3");
  TF_ShapeInferenceContextWithRank(c(), h_, int64_t{1} << 40, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "Rank cannot exceed kint32max");

  TF_ShapeInferenceContextGetInput(c(), 1, h_, s_);  // unknown rank takes the asked rank
  TF_ShapeInferenceContextWithRank(c(), h_, 2, r_, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(TF_ShapeInferenceContextRank(c(), r_), 2);
}

TEST_F(ShapeInferenceTest, SubshapeAndConcatenate) {
  TF_ShapeInferenceContextGetInput(c(), 0, h_, s_);
  TF_ShapeInferenceContextSubshape(c(), h_, 1, 3, r_, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  TF_ShapeInferenceContextSetOutput(c(), 0, r_, s_);
  EXPECT_EQ(ctx_.output(0), PartialShape::Of({3, -1}));
  TF_ShapeInferenceContextSubshape(c(), h_, -5, 3, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "Subshape start out of bounds: -5, for shape with rank 3");
  TF_ShapeInferenceContextSubshape(c(), h_, 0, -4, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "Subshape end out of bounds: -4, for shape with rank 3");
  TF_ShapeInferenceContextSubshape(c(), h_, 2, 1, r_, s_);
  EXPECT_STREQ(
      TF_Message(s_),
      "Subshape must have computed start <= end, but is 2 and 1 (computed from start 2 and end 1 "
      "over shape with rank 3)");

  TF_ShapeHandle* v = TF_ShapeInferenceContextVectorFromSize(c(), 7);
  TF_ShapeHandle* scalar = TF_ShapeInferenceContextScalar(c());
  TF_ShapeInferenceContextConcatenateShapes(c(), h_, v, r_, s_);
  TF_ShapeInferenceContextSetOutput(c(), 1, r_, s_);
  EXPECT_EQ(ctx_.output(1), PartialShape::Of({2, 3, -1, 7}));
  EXPECT_EQ(TF_ShapeInferenceContextRank(c(), scalar), 0);
  TF_ShapeInferenceContextSetOutput(c(), 2, r_, s_);
  EXPECT_STREQ(TF_Message(s_), "output index out of range");
  TF_DeleteShapeHandle(v);
  TF_DeleteShapeHandle(scalar);
}

TEST_F(ShapeInferenceTest, AttrsAndUnknownShape) {
  TF_DataType t{};
  TF_ShapeInferenceContext_GetAttrType(c(), "T", &t, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(t, TF_HALF);
  TF_ShapeInferenceContext_GetAttrType(c(), "U", &t, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_NOT_FOUND);
  EXPECT_STREQ(TF_Message(s_), "No attr named 'U' in NodeDef:\n\t [[{{node node}}]]");
  TF_ShapeInferenceContextSetUnknownShape(c(), s_);
  EXPECT_EQ(ctx_.output(0), PartialShape::Unknown());
  EXPECT_EQ(ctx_.output(1), PartialShape::Unknown());
}

void FailingShapeFn(TF_ShapeInferenceContext*, TF_Status* status) {
  TF_SetStatus(status, TF_INVALID_ARGUMENT, "no");
}

TEST(InferenceContextTest, RunReturnsTheShapeFunctionStatus) {
  InferenceContext ctx("n", {}, 0);
  auto s = ctx.Run(FailingShapeFn);
  EXPECT_EQ(s.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message, "no");
}

}  // namespace
}  // namespace conformance::core
