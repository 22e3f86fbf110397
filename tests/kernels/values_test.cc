// Element conversions (half, bfloat16, saturating integers), ULP distances, input generation
// and the comparison that names the worst element.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"

namespace conformance::kernels {
namespace {

double RoundTrip(TF_DataType dtype, double value) {
  std::uint8_t bytes[8] = {};
  WriteElement(dtype, bytes, 0, value);
  return ReadElement(dtype, bytes, 0);
}

TEST(DtypeValues, HalfAndBfloat16RoundToNearestEven) {
  EXPECT_EQ(RoundTrip(TF_HALF, 1.0), 1.0);
  EXPECT_EQ(RoundTrip(TF_HALF, 65504.0), 65504.0);
  EXPECT_TRUE(std::isinf(RoundTrip(TF_HALF, 70000.0)));
  EXPECT_EQ(RoundTrip(TF_HALF, 1.0 + 1.0 / 2048), 1.0);  // tie -> even
  EXPECT_EQ(RoundTrip(TF_HALF, 1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024);
  EXPECT_EQ(RoundTrip(TF_HALF, 5.960464477539063e-08), 5.960464477539063e-08);  // smallest denormal
  EXPECT_TRUE(std::isnan(RoundTrip(TF_HALF, NAN)));
  EXPECT_EQ(RoundTrip(TF_BFLOAT16, 1.0 + 1.0 / 256), 1.0);  // tie -> even
  EXPECT_EQ(RoundTrip(TF_BFLOAT16, 3.0), 3.0);
  EXPECT_TRUE(std::isnan(RoundTrip(TF_BFLOAT16, NAN)));
}

TEST(DtypeValues, IntegersTruncateAndSaturate) {
  EXPECT_EQ(RoundTrip(TF_INT8, 300), 127);
  EXPECT_EQ(RoundTrip(TF_INT8, -2.7), -2);
  EXPECT_EQ(RoundTrip(TF_UINT8, -1), 0);
  EXPECT_EQ(RoundTrip(TF_BOOL, 0.5), 1);
}

TEST(DtypeValues, UlpDistance) {
  EXPECT_EQ(UlpDistance(TF_FLOAT, 1.0, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(UlpDistance(TF_FLOAT, -0.0, 0.0), 0u);
  EXPECT_EQ(UlpDistance(TF_FLOAT, -std::numeric_limits<float>::denorm_min(),
                        std::numeric_limits<float>::denorm_min()),
            2u);
  EXPECT_EQ(UlpDistance(TF_DOUBLE, 1.0, std::nextafter(std::nextafter(1.0, 2.0), 2.0)), 2u);
  EXPECT_EQ(UlpDistance(TF_HALF, 1.0, 1.0 + 1.0 / 1024), 1u);
}

TEST(DtypeValues, SpecialValuesPerDtype) {
  EXPECT_EQ(SpecialValue(TF_INT32, "max"), 2147483647.0);
  EXPECT_FALSE(SpecialValue(TF_INT32, "nan"));
  EXPECT_EQ(SpecialValue(TF_FLOAT, "denorm_min"), std::numeric_limits<float>::denorm_min());
}

TEST(HostTensor, InputsAreReproducibleFromTheSeed) {
  InputFill fill;
  fill.min = -5;
  fill.max = 5;
  const HostTensor a = MakeInput(fill, TF_INT32, {100}, InputSeed(7, "kernel.X.int32.y", 0, 0, 0));
  const HostTensor b = MakeInput(fill, TF_INT32, {100}, InputSeed(7, "kernel.X.int32.y", 0, 0, 0));
  const HostTensor c = MakeInput(fill, TF_INT32, {100}, InputSeed(8, "kernel.X.int32.y", 0, 0, 0));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (std::int64_t i = 0; i < a.NumElements(); ++i) {
    EXPECT_GE(a.At(i), -5);
    EXPECT_LE(a.At(i), 5);
  }
}

TEST(HostTensor, CompareNamesTheWorstElement) {
  const HostTensor expected = MakeLiteral({1.0, 2.0, 3.0, NAN, INFINITY, 6.0}, TF_FLOAT, {2, 3});
  HostTensor actual = expected;
  EXPECT_FALSE(CompareValues(expected, actual, Tolerance{}));  // NaN equals NaN
  WriteElement(TF_FLOAT, actual.bytes.data(), 1, 2.5);
  WriteElement(TF_FLOAT, actual.bytes.data(), 5, 60.0);
  const auto mismatch = CompareValues(expected, actual, Tolerance{.rtol = 0.3});
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->index, "[1,2]");
  EXPECT_EQ(mismatch->actual, 60.0);
  EXPECT_EQ(mismatch->mismatched, 1);  // 2.5 vs 2 is within rtol 0.3
  WriteElement(TF_FLOAT, actual.bytes.data(), 4, -INFINITY);
  EXPECT_EQ(CompareValues(expected, actual, Tolerance{.rtol = 0.3})->index,
            "[1,1]");  // infinitely wrong
  EXPECT_TRUE(SameResult(expected, expected));
  EXPECT_FALSE(SameResult(expected, actual));
}

// TensorFlow's CPU flushes subnormal results to zero for float, double and bfloat16, other
// hardware keeps them: a subnormal matches zero and any other subnormal, even with an exact
// tolerance, but the smallest normal value does not match zero.
TEST(HostTensor, SubnormalsMatchZero) {
  for (TF_DataType dtype : {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16}) {
    const double denorm = *SpecialValue(dtype, "denorm_min");
    const HostTensor zeros = MakeLiteral({0.0, -0.0, 3 * denorm}, dtype, {3});
    const HostTensor subnormals = MakeLiteral({denorm, -denorm, denorm}, dtype, {3});
    EXPECT_FALSE(CompareValues(zeros, subnormals, Tolerance{})) << DtypeName(dtype);
    const double smallest_normal = dtype == TF_DOUBLE ? std::numeric_limits<double>::min()
                                   : dtype == TF_HALF ? 0x1.0p-14
                                                      : std::numeric_limits<float>::min();
    const HostTensor normal = MakeLiteral({smallest_normal, 0.0, 0.0}, dtype, {3});
    EXPECT_TRUE(CompareValues(zeros, normal, Tolerance{})) << DtypeName(dtype);
  }
}

}  // namespace
}  // namespace conformance::kernels
