// Op registration: TF_OpDefinitionBuilder* recording and the op registry.
#include <gtest/gtest.h>

#include "core/op_registry.h"
#include "recorder_fixture.h"
#include "tensorflow/c/ops.h"

namespace conformance::core {
namespace {

void ShapeFn(TF_ShapeInferenceContext*, TF_Status*) {}

class OpBuilderTest : public testing::RecorderTest {};

TEST_F(OpBuilderTest, RegistrationRecordsSpecsFlagsAndShapeFunction) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("MyAdd");
  EXPECT_EQ(LiveDelta().op_builders, 1);
  TF_OpDefinitionBuilderAddAttr(b, "T: {float, half}");
  TF_OpDefinitionBuilderAddInput(b, "x: T");
  TF_OpDefinitionBuilderAddInput(b, "y: T");
  TF_OpDefinitionBuilderAddOutput(b, "z: T");
  TF_OpDefinitionBuilderSetIsCommutative(b, true);
  TF_OpDefinitionBuilderSetIsStateful(b, true);
  TF_OpDefinitionBuilderDeprecated(b, 12, "use AddV2");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(b, ShapeFn);
  TF_RegisterOpDefinition(b, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(LiveDelta().op_builders, 0);

  auto ops = Recorder::Instance().Ops();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].plugin, "unit-test");
  EXPECT_EQ(ops[0].name, "MyAdd");
  EXPECT_EQ(ops[0].attrs, std::vector<std::string>{"T: {float, half}"});
  EXPECT_EQ(ops[0].inputs, (std::vector<std::string>{"x: T", "y: T"}));
  EXPECT_EQ(ops[0].outputs, std::vector<std::string>{"z: T"});
  EXPECT_TRUE(ops[0].is_commutative);
  EXPECT_TRUE(ops[0].is_stateful);
  EXPECT_FALSE(ops[0].is_aggregate);
  EXPECT_FALSE(ops[0].allows_uninitialized_input);
  EXPECT_TRUE(ops[0].has_shape_inference);
  EXPECT_EQ(ops[0].status_code, TF_OK);

  auto def = FindOpDefinition("MyAdd");
  ASSERT_TRUE(def.has_value());
  EXPECT_EQ(def->shape_inference, &ShapeFn);
  EXPECT_TRUE(def->deprecated);
  EXPECT_EQ(def->deprecation_version, 12);
  EXPECT_EQ(def->deprecation_explanation, "use AddV2");
  TF_DeleteStatus(s);
}

TEST_F(OpBuilderTest, FlagSettersIgnoreTheirArgumentLikeTensorFlow) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("Flags");
  TF_OpDefinitionBuilderSetIsAggregate(b, false);
  TF_OpDefinitionBuilderSetAllowsUninitializedInput(b, false);
  TF_RegisterOpDefinition(b, s);
  auto ops = Recorder::Instance().Ops();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].is_aggregate);
  EXPECT_TRUE(ops[0].allows_uninitialized_input);
  EXPECT_FALSE(ops[0].has_shape_inference);
  TF_DeleteStatus(s);
}

TEST_F(OpBuilderTest, DeletedBuildersAreNotRegistered) {
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("Dropped");
  TF_DeleteOpDefinitionBuilder(b);
  TF_DeleteOpDefinitionBuilder(nullptr);
  EXPECT_TRUE(Recorder::Instance().Ops().empty());
  EXPECT_EQ(LiveDelta().op_builders, 0);
}

}  // namespace
}  // namespace conformance::core
