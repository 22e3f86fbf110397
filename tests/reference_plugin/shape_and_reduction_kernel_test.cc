// Golden values for Sum, Mean, Max (axes, keep_dims, negative axes, both index types) and for
// Identity, Transpose, Fill, ZerosLike.
#include <cmath>

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

using ShapeAndReductionKernelTest = ReferenceKernelTest;

KernelCall reduce(const char* op, Tensor input, Tensor axes, bool keep_dims = false) {
  const TF_DataType dtype = input.dtype(), index = axes.dtype();
  return {.op = op,
          .attrs = {{"T", dtype}, {"Tidx", index}, {"keep_dims", keep_dims}},
          .inputs = {{"input", input}, {"reduction_indices", axes}},
          .outputs = {dtype}};
}

Tensor matrix() { return floats({2, 3}, {1, 2, 3, 4, 5, 6}); }

TEST_F(ShapeAndReductionKernelTest, SumOverAxes) {
  KernelRun rows = run(reduce("Sum", matrix(), int32s({1}, {1})));
  ASSERT_TRUE(rows.ok()) << rows.compute.message;
  EXPECT_EQ(rows.shape(0), (Shape{2}));
  EXPECT_EQ(rows.values<float>(0), (std::vector<float>{6, 15}));

  KernelRun kept = run(reduce("Sum", matrix(), int32s({}, {1}), /*keep_dims=*/true));
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept.shape(0), (Shape{2, 1}));
  EXPECT_EQ(kept.values<float>(0), (std::vector<float>{6, 15}));

  KernelRun negative = run(reduce("Sum", matrix(), int64s({1}, {-2})));
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative.values<float>(0), (std::vector<float>{5, 7, 9}));

  KernelRun all = run(reduce("Sum", matrix(), int32s({2}, {0, -1}), true));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.shape(0), (Shape{1, 1}));
  EXPECT_EQ(all.values<float>(0), (std::vector<float>{21}));

  KernelRun none = run(reduce("Sum", matrix(), int32s({0}, {})));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none.values<float>(0), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(ShapeAndReductionKernelTest, MeanAndMax) {
  EXPECT_EQ(run(reduce("Mean", matrix(), int32s({1}, {1}))).values<float>(0),
            (std::vector<float>{2, 5}));
  // Integer mean divides with truncation.
  EXPECT_EQ(run(reduce("Mean", int32s({2, 2}, {1, 2, 4, 4}), int32s({1}, {0}))).values<int32_t>(0),
            (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(run(reduce("Max", matrix(), int64s({1}, {-1}))).values<float>(0),
            (std::vector<float>{3, 6}));
  const auto with_nan =
      run(reduce("Max", floats({3}, {1, std::nanf(""), 2}), int32s({1}, {0}))).values<float>(0);
  EXPECT_TRUE(std::isnan(with_nan.at(0)));
}

TEST_F(ShapeAndReductionKernelTest, ReductionAxisErrors) {
  KernelRun out_of_range = run(reduce("Sum", matrix(), int32s({1}, {2})));
  EXPECT_EQ(out_of_range.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(out_of_range.compute.message,
            "Invalid reduction dimension (2 for input with 2 dimension(s)");
  KernelRun duplicate = run(reduce("Max", matrix(), int32s({2}, {1, -1})));
  EXPECT_EQ(duplicate.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(duplicate.compute.message,
            "Invalid reduction arguments: Axes contains duplicate dimension: 1");
}

TEST_F(ShapeAndReductionKernelTest, IdentityForwards) {
  KernelRun r = run({.op = "Identity",
                     .attrs = {{"T", TF_INT64}},
                     .inputs = {{"input", int64s({2}, {7, -7})}},
                     .outputs = {TF_INT64}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.values<int64_t>(0), (std::vector<int64_t>{7, -7}));
}

KernelCall transpose(Tensor x, Tensor perm) {
  return {.op = "Transpose",
          .attrs = {{"T", x.dtype()}, {"Tperm", perm.dtype()}},
          .inputs = {{"x", x}, {"perm", perm}},
          .outputs = {x.dtype()}};
}

TEST_F(ShapeAndReductionKernelTest, Transpose) {
  KernelRun r = run(transpose(matrix(), int32s({2}, {1, 0})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{3, 2}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // [2,1,3] with perm (2,0,1) -> [3,2,1]: out[k][i][0] = in[i][0][k].
  KernelRun three = run(transpose(int32s({2, 1, 3}, {1, 2, 3, 4, 5, 6}), int64s({3}, {2, 0, 1})));
  ASSERT_TRUE(three.ok()) << three.compute.message;
  EXPECT_EQ(three.shape(0), (Shape{3, 2, 1}));
  EXPECT_EQ(three.values<int32_t>(0), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  KernelRun bad = run(transpose(matrix(), int32s({2}, {0, 0})));
  EXPECT_EQ(bad.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(bad.compute.message, "1 is missing from {0,0}.");
}

TEST_F(ShapeAndReductionKernelTest, FillAndZerosLike) {
  KernelRun fill = run({.op = "Fill",
                        .attrs = {{"T", TF_FLOAT}, {"index_type", TF_INT32}},
                        .inputs = {{"dims", int32s({2}, {2, 2})}, {"value", floats({}, {7})}},
                        .outputs = {TF_FLOAT}});
  ASSERT_TRUE(fill.ok()) << fill.compute.message;
  EXPECT_EQ(fill.shape(0), (Shape{2, 2}));
  EXPECT_EQ(fill.values<float>(0), (std::vector<float>{7, 7, 7, 7}));
  KernelRun zeros = run({.op = "ZerosLike",
                         .attrs = {{"T", TF_HALF}},
                         .inputs = {{"x", bits16(TF_HALF, {3}, {0x3C00, 0x7E00, 0xFC00})}},
                         .outputs = {TF_HALF}});
  ASSERT_TRUE(zeros.ok());
  EXPECT_EQ(zeros.values<uint16_t>(0), (std::vector<uint16_t>{0, 0, 0}));
}

}  // namespace
}  // namespace reference_plugin_test
