// Golden values for the unary math ops, the activations, Softmax/LogSoftmax and Cast.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

KernelCall unary(const char* op, TF_DataType dtype, Tensor x, const char* arg = "x") {
  return {.op = op, .attrs = {{"T", dtype}}, .inputs = {{arg, x}}, .outputs = {dtype}};
}

class UnaryKernelTest : public ReferenceKernelTest {
 protected:
  // op applied to a float vector.
  std::vector<float> run_floats(const char* op, const std::vector<float>& x) {
    const auto n = static_cast<int64_t>(x.size());
    KernelRun r = run(unary(op, TF_FLOAT, floats({n}, x)));
    EXPECT_TRUE(r.ok()) << op << ": " << r.compute.message;
    return r.values<float>(0);
  }
};

TEST_F(UnaryKernelTest, UnaryMath) {
  EXPECT_EQ(run_floats("Neg", {1, -2, 0}), (std::vector<float>{-1, 2, -0.0f}));
  EXPECT_EQ(run_floats("Abs", {-1.5, 2}), (std::vector<float>{1.5, 2}));
  EXPECT_EQ(run_floats("Sqrt", {4, 2.25}), (std::vector<float>{2, 1.5}));
  EXPECT_EQ(run_floats("Rsqrt", {4, 0.25}), (std::vector<float>{0.5, 2}));
  EXPECT_EQ(run_floats("Square", {-3, 0.5}), (std::vector<float>{9, 0.25}));
  const auto exp = run_floats("Exp", {0, 1});
  EXPECT_EQ(exp[0], 1);
  EXPECT_FLOAT_EQ(exp[1], 2.7182818f);
  const auto log = run_floats("Log", {1, 2.7182818f, 0});
  EXPECT_EQ(log[0], 0);
  EXPECT_FLOAT_EQ(log[1], 1);
  EXPECT_EQ(log[2], -std::numeric_limits<float>::infinity());
}

// IEEE negation, as TensorFlow: Neg(0) is -0 and Neg(NaN) flips the NaN's sign bit (0 - x
// would keep both).
TEST_F(UnaryKernelTest, NegFlipsTheSignBitOfZeroAndNaN) {
  const auto y = run_floats("Neg", {0.0f, std::numeric_limits<float>::quiet_NaN()});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_TRUE(std::signbit(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_TRUE(std::signbit(y[1]));
}

// As TensorFlow's CPU kernel (measured): exp(x) is rounded to half before 1 is subtracted, so
// Elu(half -0.03) is -0.02978515625 (0xA7A0), not the once-rounded -0.02955627 (0xA791).
TEST_F(UnaryKernelTest, HalfEluRoundsExpFirst) {
  KernelRun r = run(unary("Elu", TF_HALF, bits16(TF_HALF, {1}, {0xA7AE}), "features"));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(r.values<uint16_t>(0), (std::vector<uint16_t>{0xA7A0}));
}

TEST_F(UnaryKernelTest, IntegerNegAbsSquare) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(run(unary("Abs", TF_INT32, int32s({3}, {-7, 7, kMin}))).values<int32_t>(0),
            (std::vector<int32_t>{7, 7, kMin}));  // the most negative value wraps to itself
  EXPECT_EQ(run(unary("Neg", TF_INT64, int64s({2}, {5, -6}))).values<int64_t>(0),
            (std::vector<int64_t>{-5, 6}));
  EXPECT_EQ(run(unary("Square", TF_INT32, int32s({2}, {-4, 46341}))).values<int32_t>(0),
            (std::vector<int32_t>{16, -2147479015}));  // 46341^2 = 2^31 + 4633 wraps
}

TEST_F(UnaryKernelTest, Activations) {
  EXPECT_EQ(run_floats("Relu", {-1, 0, 2}), (std::vector<float>{0, 0, 2}));
  EXPECT_EQ(run_floats("Relu6", {-1, 3, 7}), (std::vector<float>{0, 3, 6}));
  const auto elu = run_floats("Elu", {-1, 2});
  EXPECT_FLOAT_EQ(elu[0], std::exp(-1.0f) - 1);
  EXPECT_EQ(elu[1], 2);
  const auto sigmoid = run_floats("Sigmoid", {0, 2});
  EXPECT_EQ(sigmoid[0], 0.5f);
  EXPECT_FLOAT_EQ(sigmoid[1], 0.8807971f);
  const auto tanh = run_floats("Tanh", {0, 1});
  EXPECT_EQ(tanh[0], 0);
  EXPECT_FLOAT_EQ(tanh[1], 0.7615942f);
  EXPECT_TRUE(std::isnan(run_floats("Relu", {std::nanf("")})[0]));
  EXPECT_EQ(run(unary("Relu", TF_INT32, int32s({2}, {-5, 5}), "features")).values<int32_t>(0),
            (std::vector<int32_t>{0, 5}));
}

TEST_F(UnaryKernelTest, SoftmaxOverTheLastDimension) {
  // Row 1: equal logits share equally. Row 2: exp(ln 3) = 3 times the weight of exp(0).
  const float ln3 = std::log(3.0f);
  KernelRun r = run(unary("Softmax", TF_FLOAT, floats({2, 2}, {0, 0, 0, ln3}), "logits"));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  const auto y = r.values<float>(0);
  EXPECT_FLOAT_EQ(y[0], 0.5f);
  EXPECT_FLOAT_EQ(y[1], 0.5f);
  EXPECT_FLOAT_EQ(y[2], 0.25f);
  EXPECT_FLOAT_EQ(y[3], 0.75f);

  // Large logits do not overflow: the row maximum is subtracted first.
  KernelRun log = run(unary("LogSoftmax", TF_FLOAT, floats({2}, {1000, 1000}), "logits"));
  ASSERT_TRUE(log.ok());
  EXPECT_FLOAT_EQ(log.values<float>(0)[0], -std::log(2.0f));
  EXPECT_FLOAT_EQ(log.values<float>(0)[1], -std::log(2.0f));

  KernelRun scalar = run(unary("Softmax", TF_FLOAT, floats({}, {1}), "logits"));
  EXPECT_EQ(scalar.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(scalar.compute.message, "logits must have >= 1 dimension, got []");
}

KernelCall cast(TF_DataType from, TF_DataType to, Tensor x, bool truncate = false) {
  return {.op = "Cast",
          .attrs = {{"SrcT", from}, {"DstT", to}, {"Truncate", truncate}},
          .inputs = {{"x", x}},
          .outputs = {to}};
}

TEST_F(UnaryKernelTest, CastFloatToIntegerTruncatesTowardZero) {
  KernelRun r = run(cast(TF_FLOAT, TF_INT32, floats({4}, {1.9f, -1.9f, std::nanf(""), 3e9f})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(r.values<int32_t>(0), (std::vector<int32_t>{1, -1, kMin, kMin}));
}

TEST_F(UnaryKernelTest, CastToHalfAndBFloat16RoundsOrTruncates) {
  // 1 + 2^-11 ties to 1.0 in half; 1 + 2^-10 + 2^-11 ties up to 1 + 2^-9.
  KernelRun half = run(cast(TF_FLOAT, TF_HALF, floats({2}, {1.00048828125f, 1.00146484375f})));
  ASSERT_TRUE(half.ok()) << half.compute.message;
  EXPECT_EQ(half.values<uint16_t>(0), (std::vector<uint16_t>{0x3C00, 0x3C02}));
  // 1 + 2^-7 + 2^-8 + 2^-9: rounds up to 1 + 2^-6 (0x3F82), truncates to 1 + 2^-7 (0x3F81).
  KernelRun rounded = run(cast(TF_FLOAT, TF_BFLOAT16, floats({1}, {1.013671875f})));
  KernelRun truncated = run(cast(TF_FLOAT, TF_BFLOAT16, floats({1}, {1.013671875f}), true));
  ASSERT_TRUE(rounded.ok() && truncated.ok());
  EXPECT_EQ(rounded.values<uint16_t>(0), (std::vector<uint16_t>{0x3F82}));
  EXPECT_EQ(truncated.values<uint16_t>(0), (std::vector<uint16_t>{0x3F81}));
  // NaN stays NaN; half to float is exact (2^-24, the least subnormal).
  EXPECT_EQ(run(cast(TF_FLOAT, TF_HALF, floats({1}, {std::nanf("")}))).values<uint16_t>(0),
            (std::vector<uint16_t>{0x7E00}));
  EXPECT_EQ(run(cast(TF_HALF, TF_FLOAT, bits16(TF_HALF, {1}, {0x0001}))).values<float>(0),
            (std::vector<float>{0x1p-24f}));
}

TEST_F(UnaryKernelTest, CastBoolAndSameType) {
  EXPECT_EQ(run(cast(TF_INT32, TF_BOOL, int32s({3}, {0, 5, -1}))).values<uint8_t>(0),
            (std::vector<uint8_t>{0, 1, 1}));
  EXPECT_EQ(run(cast(TF_BOOL, TF_DOUBLE, bools({2}, {true, false}))).values<double>(0),
            (std::vector<double>{1, 0}));
  EXPECT_EQ(run(cast(TF_INT64, TF_INT64, int64s({2}, {4, -4}))).values<int64_t>(0),
            (std::vector<int64_t>{4, -4}));
}

}  // namespace
}  // namespace reference_plugin_test
