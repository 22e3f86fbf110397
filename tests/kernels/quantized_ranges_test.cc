// A quantized output and its range judged by the floats they stand for (quantized_ranges.h):
// another range encoding the same values agrees, wrong values or a wrong range do not.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"
#include "kernels/quantized_ranges.h"

namespace conformance::kernels {
namespace {

HostTensor Tensor(TF_DataType dtype, const core::Shape& shape, const std::vector<double>& values) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = shape;
  tensor.bytes.resize(values.size() * ElementSize(dtype));
  for (std::size_t i = 0; i < values.size(); ++i)
    WriteElement(dtype, tensor.bytes.data(), static_cast<std::int64_t>(i), values[i]);
  return tensor;
}

HostTensor Scalar(double value) { return Tensor(TF_FLOAT, {}, {value}); }

TEST(QuantizedRanges, ReadAsTensorFlowReadsThem) {
  // quint8 in [0, 1]: 0 is 0, 255 is 1; qint8 in [-1, 1]: -128 is -1, 127 is 1.
  const HostTensor bytes = Tensor(TF_QUINT8, {2}, {0, 255});
  const HostTensor zero = Scalar(0), one = Scalar(1), minus_one = Scalar(-1);
  EXPECT_DOUBLE_EQ(DequantizedAt({bytes, zero, one}, 0), 0.0);
  EXPECT_DOUBLE_EQ(DequantizedAt({bytes, zero, one}, 1), 1.0);
  const HostTensor signed_bytes = Tensor(TF_QINT8, {2}, {-128, 127});
  EXPECT_DOUBLE_EQ(DequantizedAt({signed_bytes, minus_one, one}, 0), -1.0);
  EXPECT_DOUBLE_EQ(DequantizedAt({signed_bytes, minus_one, one}, 1), 1.0);
}

TEST(QuantizedRanges, AnotherRangeForTheSameValuesAgrees) {
  // TensorFlow's CPU re-encodes quint8 values of range [-1, 1] into [0, 1] (QuantizedConcatV2);
  // a kernel keeping [-1, 1] gives other integers for the same floats.
  const HostTensor tensorflow = Tensor(TF_QUINT8, {3}, {178, 0, 255});
  const HostTensor kept = Tensor(TF_QUINT8, {3}, {216, 127, 255});
  const HostTensor zero = Scalar(0), one = Scalar(1), minus_one = Scalar(-1);
  EXPECT_FALSE(CompareDequantized({tensorflow, zero, one}, {kept, minus_one, one}));
  // The integers right but the range dropped ([0, 255] given): every float wrong.
  const HostTensor lowest = Scalar(0), highest = Scalar(255);
  const auto dropped = CompareDequantized({tensorflow, zero, one}, {tensorflow, lowest, highest});
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->mismatched, 2);  // 0 stands for 0 in both
  // Two steps off in one element: outside.
  const HostTensor off = Tensor(TF_QUINT8, {3}, {180, 0, 255});
  const auto two_steps = CompareDequantized({tensorflow, zero, one}, {off, zero, one});
  ASSERT_TRUE(two_steps);
  EXPECT_EQ(two_steps->index, "[0]");
  // One step off (another rounding): inside.
  const HostTensor rounded = Tensor(TF_QUINT8, {3}, {179, 0, 255});
  EXPECT_FALSE(CompareDequantized({tensorflow, zero, one}, {rounded, zero, one}));
}

TEST(QuantizedRanges, OneRangePerChannelOfTheLastDimension) {
  const HostTensor sums = Tensor(TF_QINT32, {2, 2}, {100, 200, 100, 200});
  const HostTensor mins = Tensor(TF_FLOAT, {2}, {-1, -2});
  const HostTensor maxes = Tensor(TF_FLOAT, {2}, {1, 2});
  EXPECT_TRUE(IsRangeOf(sums, mins, maxes));
  EXPECT_FALSE(
      IsRangeOf(sums, Tensor(TF_FLOAT, {3}, {-1, -2, -3}), Tensor(TF_FLOAT, {3}, {1, 2, 3})));
  EXPECT_FALSE(IsRangeOf(Tensor(TF_INT32, {2}, {1, 2}), Scalar(0), Scalar(1)));
  // Channel 1's range is twice channel 0's: the same integer stands for twice the value.
  const HostTensor same = Tensor(TF_QINT32, {1, 2}, {1000000, 1000000});
  const double channel0 = DequantizedAt({same, mins, maxes}, 0);
  const double channel1 = DequantizedAt({same, mins, maxes}, 1);
  EXPECT_GT(channel0, 0.0);
  EXPECT_NEAR(channel1, 2 * channel0, 1e-12);
}

}  // namespace
}  // namespace conformance::kernels
