// Reference>Scale: the plugin's own op. Its ops.h definition (with the shape function) is in
// the core's op registry after TF_InitKernel, and its kernel computes x * scale.
#include <gtest/gtest.h>

#include "core/op_registry.h"
#include "core/shape_inference.h"
#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

constexpr char kScale[] = "Reference>Scale";

class ScaleOpTest : public ReferenceKernelTest {};

TEST_F(ScaleOpTest, MultipliesByTheScaleAttr) {
  KernelRun r = run({.op = kScale,
                     .attrs = {{"T", TF_FLOAT}, {"scale", 2.5f}},
                     .inputs = {{"x", floats({2, 2}, {1, -2, 0, 4})}},
                     .outputs = {TF_FLOAT}});
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{2.5f, -5, 0, 10}));
  EXPECT_EQ(r.shape(0), (Shape{2, 2}));
  KernelRun d = run({.op = kScale,
                     .attrs = {{"T", TF_DOUBLE}, {"scale", -1.0f}},
                     .inputs = {{"x", doubles({1}, {0.25})}},
                     .outputs = {TF_DOUBLE}});
  ASSERT_TRUE(d.ok()) << d.compute.message;
  EXPECT_EQ(d.values<double>(0), (std::vector<double>{-0.25}));
}

TEST_F(ScaleOpTest, DefinitionAndShapeFunctionAreRegistered) {
  reference_kernels();  // runs TF_InitKernel once
  const auto definition = conformance::core::FindOpDefinition(kScale);
  ASSERT_TRUE(definition.has_value());
  ASSERT_NE(definition->shape_inference, nullptr);
  using conformance::core::PartialShape;
  for (const PartialShape& in : {PartialShape::Unknown(), PartialShape::Of({3, -1})}) {
    conformance::core::InferenceContext ctx("scale", {in}, 1);
    const conformance::core::Status status = ctx.Run(definition->shape_inference);
    ASSERT_TRUE(status.ok()) << status.message;
    ASSERT_TRUE(ctx.output(0).has_value());
    EXPECT_EQ(*ctx.output(0), in);  // the output has the input's shape, known or not
  }
}

}  // namespace
}  // namespace reference_plugin_test
