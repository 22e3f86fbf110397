// Golden values for AddV2, Sub, Mul, RealDiv, Maximum, Minimum, SquaredDifference, and the
// broadcasting they share.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

using ElementwiseBinaryKernelTest = ReferenceKernelTest;

KernelCall binary(const char* op, TF_DataType dtype, Tensor x, Tensor y) {
  return {.op = op, .attrs = {{"T", dtype}}, .inputs = {{"x", x}, {"y", y}}, .outputs = {dtype}};
}

TEST_F(ElementwiseBinaryKernelTest, AddBroadcastsARowOverAMatrix) {
  KernelRun r =
      run(binary("AddV2", TF_FLOAT, floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({3}, {10, 20, 30})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{2, 3}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST_F(ElementwiseBinaryKernelTest, AddBroadcastsAColumnAgainstARow) {
  KernelRun r =
      run(binary("AddV2", TF_FLOAT, floats({2, 1}, {1, 2}), floats({1, 3}, {10, 20, 30})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.shape(0), (Shape{2, 3}));
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST_F(ElementwiseBinaryKernelTest, ScalarAndEmptyOperands) {
  KernelRun r = run(binary("Sub", TF_INT32, int32s({2}, {5, 3}), int32s({}, {2})));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.values<int32_t>(0), (std::vector<int32_t>{3, 1}));

  KernelRun empty = run(binary("AddV2", TF_FLOAT, floats({0, 3}, {}), floats({1, 3}, {1, 2, 3})));
  ASSERT_TRUE(empty.ok()) << empty.compute.message;
  EXPECT_EQ(empty.shape(0), (Shape{0, 3}));
}

TEST_F(ElementwiseBinaryKernelTest, IntegersWrapAround) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(run(binary("Sub", TF_INT32, int32s({1}, {kMin}), int32s({1}, {1}))).values<int32_t>(0),
            (std::vector<int32_t>{kMax}));
  EXPECT_EQ(
      run(binary("Mul", TF_INT64, int64s({2}, {3, -4}), int64s({2}, {5, 6}))).values<int64_t>(0),
      (std::vector<int64_t>{15, -24}));
}

TEST_F(ElementwiseBinaryKernelTest, RealDiv) {
  KernelRun r = run(binary("RealDiv", TF_DOUBLE, doubles({3}, {1, 3, 1}), doubles({3}, {4, 2, 0})));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.values<double>(0),
            (std::vector<double>{0.25, 1.5, std::numeric_limits<double>::infinity()}));
}

TEST_F(ElementwiseBinaryKernelTest, MaximumAndMinimumPropagateNan) {
  const float nan = std::nanf("");
  KernelRun max =
      run(binary("Maximum", TF_FLOAT, floats({3}, {1, nan, -2}), floats({3}, {0, 5, -3})));
  KernelRun min =
      run(binary("Minimum", TF_FLOAT, floats({3}, {1, nan, -2}), floats({3}, {0, 5, -3})));
  ASSERT_TRUE(max.ok() && min.ok());
  const auto mx = max.values<float>(0), mn = min.values<float>(0);
  EXPECT_EQ(mx[0], 1);
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], -2);
  EXPECT_EQ(mn[0], 0);
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(mn[2], -3);
  EXPECT_EQ(
      run(binary("Maximum", TF_INT64, int64s({2}, {7, -9}), int64s({1}, {0}))).values<int64_t>(0),
      (std::vector<int64_t>{7, 0}));
}

TEST_F(ElementwiseBinaryKernelTest, SquaredDifference) {
  KernelRun r =
      run(binary("SquaredDifference", TF_FLOAT, floats({2}, {1, 5}), floats({2}, {4, 2})));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{9, 9}));
}

TEST_F(ElementwiseBinaryKernelTest, IncompatibleShapesAreInvalidArgument) {
  KernelRun r =
      run(binary("AddV2", TF_FLOAT, floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({2}, {1, 2})));
  EXPECT_EQ(r.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(r.compute.message, "Incompatible shapes: [2,3] vs. [2]");
  EXPECT_FALSE(r.output_set[0]);
}

// 16-bit floats: computed in float, rounded once to nearest, ties to even.
TEST_F(ElementwiseBinaryKernelTest, HalfRoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 (0x3C00, even) and 1 + 2^-10 (0x3C01): rounds down.
  // (1 + 2^-10) + 2^-11 lies halfway between 0x3C01 (odd) and 0x3C02: rounds up.
  // 65504 (0x7BFF, the largest half) + 15 rounds back to 65504; + 32 overflows to +inf.
  KernelRun r = run(binary("AddV2", TF_HALF, bits16(TF_HALF, {4}, {0x3C00, 0x3C01, 0x7BFF, 0x7BFF}),
                           bits16(TF_HALF, {4}, {0x1000, 0x1000, 0x4B80, 0x5000})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<uint16_t>(0), (std::vector<uint16_t>{0x3C00, 0x3C02, 0x7BFF, 0x7C00}));
}

TEST_F(ElementwiseBinaryKernelTest, HalfSubnormals) {
  // 2^-14 * 0.5 = 2^-15 (subnormal 0x0200); 2^-24 * 0.5 ties to 0; 3 * 2^-24 * 0.5 ties to 2 *
  // 2^-24.
  KernelRun r = run(binary("Mul", TF_HALF, bits16(TF_HALF, {3}, {0x0400, 0x0001, 0x0003}),
                           bits16(TF_HALF, {1}, {0x3800})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<uint16_t>(0), (std::vector<uint16_t>{0x0200, 0x0000, 0x0002}));
}

// As TensorFlow's CPU kernel (measured with tests/tensorflow_oracle): the difference is rounded
// to half before it is squared. 33 - 2^-7 = 32.9921875 rounds to 33, so the result is 1089
// (0x6441); squaring the exact difference and rounding once would give 1088.
TEST_F(ElementwiseBinaryKernelTest, HalfSquaredDifferenceRoundsTheDifferenceFirst) {
  KernelRun r = run(binary("SquaredDifference", TF_HALF, bits16(TF_HALF, {1}, {0x5020}),
                           bits16(TF_HALF, {1}, {0x2000})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<uint16_t>(0), (std::vector<uint16_t>{0x6441}));
}

TEST_F(ElementwiseBinaryKernelTest, BFloat16RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between 1 (0x3F80) and 0x3F81: down to even; 0x3F81 + 2^-8 goes up to
  // 0x3F82.
  KernelRun r = run(binary("AddV2", TF_BFLOAT16, bits16(TF_BFLOAT16, {2}, {0x3F80, 0x3F81}),
                           bits16(TF_BFLOAT16, {1}, {0x3B80})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<uint16_t>(0), (std::vector<uint16_t>{0x3F80, 0x3F82}));
}

// The kernel's work is queued on its stream behind the copies that deliver its inputs: with
// the stream stalled, compute returns at once and the result is right once the stream runs.
TEST_F(ElementwiseBinaryKernelTest, ComputeIsOrderedOnTheStreamBehindItsInputs) {
  Gate gate;
  KernelRun r = run(binary("AddV2", TF_FLOAT, floats({2}, {1, 2}), floats({2}, {10, 20})),
                    {.before_inputs = [&](SP_Stream) { gate.enqueue(device(), runner_->stream()); },
                     .after_compute = [&] { gate.open(); }});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.values<float>(0), (std::vector<float>{11, 22}));
}

}  // namespace
}  // namespace reference_plugin_test
