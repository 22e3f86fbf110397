// Quantized dtypes (qint8, quint8, qint16, quint16, qint32) as the kernel tier holds them:
// integers in their storage dtype, saturated like it, named as TensorFlow names them, and
// compared exactly (a tolerance is for floats).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {
namespace {

// Unity builds join this file with values_test.cc: a name of its own.
double QuantizedRoundTrip(TF_DataType dtype, double value) {
  std::uint8_t bytes[8] = {};
  WriteElement(dtype, bytes, 0, value);
  return ReadElement(dtype, bytes, 0);
}

TEST(QuantizedValues, NamedAsTensorFlowNamesThem) {
  EXPECT_EQ(DtypeFromName("qint8"), TF_QINT8);
  EXPECT_EQ(DtypeFromName("quint8"), TF_QUINT8);
  EXPECT_EQ(DtypeFromName("qint16"), TF_QINT16);
  EXPECT_EQ(DtypeFromName("quint16"), TF_QUINT16);
  EXPECT_EQ(DtypeFromName("qint32"), TF_QINT32);
  EXPECT_EQ(DtypeName(TF_QUINT8), "quint8");
  EXPECT_TRUE(IsQuantized(TF_QINT32));
  EXPECT_FALSE(IsQuantized(TF_INT32));
  EXPECT_FALSE(IsFloating(TF_QINT8));
}

TEST(QuantizedValues, StoredAsTheirIntegers) {
  EXPECT_EQ(ElementSize(TF_QINT8), 1u);
  EXPECT_EQ(ElementSize(TF_QUINT16), 2u);
  EXPECT_EQ(ElementSize(TF_QINT32), 4u);
  // quint8 200 is the byte 0xc8, not -56: unsigned, as its storage.
  std::uint8_t byte = 0xc8;
  EXPECT_EQ(ReadElement(TF_QUINT8, &byte, 0), 200);
  EXPECT_EQ(ReadElement(TF_QINT8, &byte, 0), -56);
  EXPECT_TRUE(IsUnsigned(TF_QUINT8));
  EXPECT_FALSE(IsUnsigned(TF_QINT16));
}

TEST(QuantizedValues, SaturateAsTheirStorage) {
  EXPECT_EQ(QuantizedRoundTrip(TF_QINT8, 300), 127);
  EXPECT_EQ(QuantizedRoundTrip(TF_QUINT8, -1), 0);
  EXPECT_EQ(QuantizedRoundTrip(TF_QINT16, -40000), -32768);
  EXPECT_EQ(QuantizedRoundTrip(TF_QUINT16, 70000), 65535);
  EXPECT_EQ(QuantizedRoundTrip(TF_QINT32, -2.7), -2);
  EXPECT_EQ(SpecialValue(TF_QUINT8, "max"), 255);
  EXPECT_EQ(SpecialValue(TF_QINT8, "lowest"), -128);
  EXPECT_EQ(SpecialValue(TF_QINT32, "max"), 2147483647.0);
  EXPECT_FALSE(SpecialValue(TF_QINT8, "nan").has_value());
}

TEST(QuantizedValues, ComparedExactly) {
  const HostTensor expected = MakeLiteral({0.0, 255.0, 7.0}, TF_QUINT8, {3});
  const HostTensor one_step = MakeLiteral({0.0, 254.0, 7.0}, TF_QUINT8, {3});
  // Even a tolerance that would let floats pass judges integers exactly: one step is wrong.
  const auto mismatch = CompareValues(expected, one_step, Tolerance{.atol = 2.0});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_FALSE(CompareValues(expected, expected, Tolerance{}).has_value());
  // A quantized cell's default tolerance is float's, for its float outputs (the ranges).
  EXPECT_EQ(KernelScenario{}.ToleranceFor(TF_QUINT8).ulp, 4u);
  EXPECT_TRUE(CompareValues(expected, one_step, KernelScenario{}.ToleranceFor(TF_QUINT8)));
}

}  // namespace
}  // namespace conformance::kernels
