// Golden values for MatMul, BatchMatMulV2, Conv2D and BiasAdd, worked by hand.
#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

using LinearAlgebraKernelTest = ReferenceKernelTest;

KernelCall matmul(Tensor a, Tensor b, bool transpose_a, bool transpose_b,
                  TF_DataType dtype = TF_FLOAT) {
  return {.op = "MatMul",
          .attrs = {{"T", dtype}, {"transpose_a", transpose_a}, {"transpose_b", transpose_b}},
          .inputs = {{"a", a}, {"b", b}},
          .outputs = {dtype}};
}

// [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]], whichever operand is
// stored transposed.
TEST_F(LinearAlgebraKernelTest, MatMulWithAndWithoutTransposes) {
  const std::vector<float> expected{58, 64, 139, 154};
  const Tensor a = floats({2, 3}, {1, 2, 3, 4, 5, 6}), a_t = floats({3, 2}, {1, 4, 2, 5, 3, 6});
  const Tensor b = floats({3, 2}, {7, 8, 9, 10, 11, 12}),
               b_t = floats({2, 3}, {7, 9, 11, 8, 10, 12});
  for (auto [x, y, ta, tb] : {std::tuple{a, b, false, false}, std::tuple{a_t, b, true, false},
                              std::tuple{a, b_t, false, true}, std::tuple{a_t, b_t, true, true}}) {
    KernelRun r = run(matmul(x, y, ta, tb));
    ASSERT_TRUE(r.ok()) << r.compute.message;
    EXPECT_EQ(r.shape(0), (Shape{2, 2}));
    EXPECT_EQ(r.values<float>(0), expected) << "transpose_a=" << ta << " transpose_b=" << tb;
  }
  KernelRun ints =
      run(matmul(int32s({1, 2}, {3, -1}), int32s({2, 1}, {4, 5}), false, false, TF_INT32));
  EXPECT_EQ(ints.values<int32_t>(0), (std::vector<int32_t>{7}));
}

TEST_F(LinearAlgebraKernelTest, MatMulShapeErrors) {
  KernelRun r =
      run(matmul(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({2, 2}, {1, 2, 3, 4}), false, false));
  EXPECT_EQ(r.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(r.compute.message, "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]");
  KernelRun vector = run(matmul(floats({2}, {1, 2}), floats({2, 2}, {1, 2, 3, 4}), false, false));
  EXPECT_EQ(vector.compute.message, "In[0] is not a matrix. Instead it has shape [2]");
}

KernelCall batch_matmul(Tensor x, Tensor y, bool adj_x, bool adj_y) {
  return {.op = "BatchMatMulV2",
          .attrs = {{"T", TF_FLOAT}, {"adj_x", adj_x}, {"adj_y", adj_y}},
          .inputs = {{"x", x}, {"y", y}},
          .outputs = {TF_FLOAT}};
}

TEST_F(LinearAlgebraKernelTest, BatchMatMulBroadcastsTheBatch) {
  // Two 1x2 matrices times one 2x1 matrix: [1,2].[5,6] = 17, [3,4].[5,6] = 39.
  KernelRun r =
      run(batch_matmul(floats({2, 1, 2}, {1, 2, 3, 4}), floats({2, 1}, {5, 6}), false, false));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{2, 1, 1}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{17, 39}));

  // Batch [2,1] against [3]: broadcast to [2,3] matrices of 1x1.
  KernelRun outer = run(
      batch_matmul(floats({2, 1, 1, 1}, {1, 2}), floats({3, 1, 1}, {10, 20, 30}), false, false));
  ASSERT_TRUE(outer.ok()) << outer.compute.message;
  EXPECT_EQ(outer.shape(0), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(outer.values<float>(0), (std::vector<float>{10, 20, 30, 20, 40, 60}));
}

TEST_F(LinearAlgebraKernelTest, BatchMatMulAdjoints) {
  const Tensor x = floats({1, 2, 2}, {1, 2, 3, 4}), y = floats({1, 2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(run(batch_matmul(x, y, false, false)).values<float>(0),
            (std::vector<float>{19, 22, 43, 50}));
  EXPECT_EQ(run(batch_matmul(x, y, false, true)).values<float>(0),
            (std::vector<float>{17, 23, 39, 53}));
  EXPECT_EQ(run(batch_matmul(x, y, true, false)).values<float>(0),
            (std::vector<float>{26, 30, 38, 44}));
}

TEST_F(LinearAlgebraKernelTest, BatchMatMulErrors) {
  KernelRun batch = run(batch_matmul(floats({2, 1, 2}, {1, 2, 3, 4}),
                                     floats({3, 2, 1}, {1, 2, 3, 4, 5, 6}), false, false));
  EXPECT_EQ(batch.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(batch.compute.message,
            "In[0] and In[1] must have compatible batch dimensions: [2,1,2] vs. [3,2,1]");
  KernelRun rank = run(batch_matmul(floats({2}, {1, 2}), floats({2, 1}, {1, 2}), false, false));
  EXPECT_EQ(rank.compute.message, "In[0] ndims must be >= 2: 1");
}

// ---- Conv2D: a 3x3 image 1..9 and a 2x2 filter of ones sum 2x2 windows. ----

KernelCall conv2d(Tensor input, Tensor filter, const char* padding, std::vector<int64_t> strides,
                  const char* format = "NHWC", std::vector<int64_t> dilations = {1, 1, 1, 1},
                  std::vector<int64_t> explicit_paddings = {}) {
  conformance::core::AttrList strides_list, dilations_list, paddings_list;
  strides_list.i = std::move(strides);
  dilations_list.i = std::move(dilations);
  paddings_list.i = std::move(explicit_paddings);
  return {.op = "Conv2D",
          .attrs = {{"T", TF_FLOAT},
                    {"padding", std::string(padding)},
                    {"strides", strides_list},
                    {"dilations", dilations_list},
                    {"explicit_paddings", paddings_list},
                    {"data_format", std::string(format)},
                    {"use_cudnn_on_gpu", true}},
          .inputs = {{"input", input}, {"filter", filter}},
          .outputs = {TF_FLOAT}};
}

Tensor image() { return floats({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }
Tensor ones_2x2() { return floats({2, 2, 1, 1}, {1, 1, 1, 1}); }

TEST_F(LinearAlgebraKernelTest, Conv2DValid) {
  KernelRun r = run(conv2d(image(), ones_2x2(), "VALID", {1, 1, 1, 1}));
  ASSERT_TRUE(r.ok()) << r.construction.message << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{1, 2, 2, 1}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{12, 16, 24, 28}));
}

TEST_F(LinearAlgebraKernelTest, Conv2DSamePadsAfterWhenTheTotalIsOdd) {
  KernelRun r = run(conv2d(image(), ones_2x2(), "SAME", {1, 1, 1, 1}));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{1, 3, 3, 1}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{12, 16, 9, 24, 28, 15, 15, 17, 9}));
  KernelRun strided = run(conv2d(image(), ones_2x2(), "SAME", {1, 2, 2, 1}));
  ASSERT_TRUE(strided.ok());
  EXPECT_EQ(strided.shape(0), (Shape{1, 2, 2, 1}));
  EXPECT_EQ(strided.values<float>(0), (std::vector<float>{12, 9, 15, 9}));
}

TEST_F(LinearAlgebraKernelTest, Conv2DExplicitPadding) {
  // One row on top, one column on the left.
  KernelRun r = run(conv2d(image(), ones_2x2(), "EXPLICIT", {1, 1, 1, 1}, "NHWC", {1, 1, 1, 1},
                           {0, 0, 1, 0, 1, 0, 0, 0}));
  ASSERT_TRUE(r.ok()) << r.construction.message << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{1, 3, 3, 1}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{1, 3, 5, 5, 12, 16, 11, 24, 28}));
}

TEST_F(LinearAlgebraKernelTest, Conv2DDilation) {
  // A 2x2 filter with dilation 2 touches the four corners: 1 + 3 + 7 + 9.
  KernelRun r = run(conv2d(image(), ones_2x2(), "VALID", {1, 1, 1, 1}, "NHWC", {1, 2, 2, 1}));
  ASSERT_TRUE(r.ok()) << r.construction.message << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{1, 1, 1, 1}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{20}));
}

TEST_F(LinearAlgebraKernelTest, Conv2DNchwMixesChannels) {
  // NCHW input: channel 0 = 1..4, channel 1 = 10..40. A 1x1 filter [in=2, out=2] = [[1,2],[3,4]]:
  // out0 = c0 + 3 c1, out1 = 2 c0 + 4 c1.
  KernelRun r = run(conv2d(floats({1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40}),
                           floats({1, 1, 2, 2}, {1, 2, 3, 4}), "VALID", {1, 1, 1, 1}, "NCHW"));
  ASSERT_TRUE(r.ok()) << r.construction.message << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{1, 2, 2, 2}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{31, 62, 93, 124, 42, 84, 126, 168}));
}

TEST_F(LinearAlgebraKernelTest, Conv2DAttributeAndShapeErrors) {
  KernelRun batch_stride = run(conv2d(image(), ones_2x2(), "VALID", {2, 1, 1, 1}));
  EXPECT_EQ(batch_stride.construction.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(
      batch_stride.construction.message,
      "Current implementation does not yet support strides in the batch and depth dimensions.");
  KernelRun paddings =
      run(conv2d(image(), ones_2x2(), "EXPLICIT", {1, 1, 1, 1}, "NHWC", {1, 1, 1, 1}, {1, 1}));
  EXPECT_EQ(paddings.construction.message,
            "explicit_paddings attribute must contain 8 values, but got: 2");
  KernelRun depth = run(conv2d(image(), floats({1, 1, 2, 1}, {1, 1}), "VALID", {1, 1, 1, 1}));
  EXPECT_EQ(depth.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(depth.compute.message, "input depth must be evenly divisible by filter depth: 1 vs 2");
}

KernelCall bias_add(Tensor value, Tensor bias, const char* format) {
  return {.op = "BiasAdd",
          .attrs = {{"T", TF_FLOAT}, {"data_format", std::string(format)}},
          .inputs = {{"value", value}, {"bias", bias}},
          .outputs = {TF_FLOAT}};
}

TEST_F(LinearAlgebraKernelTest, BiasAddAlongTheChannelDimension) {
  KernelRun nhwc =
      run(bias_add(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({3}, {10, 20, 30}), "NHWC"));
  ASSERT_TRUE(nhwc.ok()) << nhwc.compute.message;
  EXPECT_EQ(nhwc.values<float>(0), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  KernelRun nchw = run(
      bias_add(floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), floats({2}, {100, 200}), "NCHW"));
  ASSERT_TRUE(nchw.ok()) << nchw.compute.message;
  EXPECT_EQ(nchw.values<float>(0), (std::vector<float>{101, 102, 103, 104, 205, 206, 207, 208}));
  KernelRun wrong = run(bias_add(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({2}, {1, 2}), "NHWC"));
  EXPECT_EQ(wrong.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(wrong.compute.message,
            "Must provide as many biases as the last dimension of the input tensor: [2] vs. [2,3]");
}

}  // namespace
}  // namespace reference_plugin_test
