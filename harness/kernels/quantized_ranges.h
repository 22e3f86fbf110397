#pragma once
// A quantized output that comes with its range: QuantizedConcatV2's (output, output_min,
// output_max), QuantizedMatMul's (out, min_out, max_out), QuantizedConv2DPerChannel's with one
// range per output channel. The integers mean nothing without the range, and TensorFlow leaves the
// range to the kernel: its CPU's QuantizedConcatV2 re-encodes two quint8 inputs of range [-1, 1]
// into [0, 1], where another kernel may keep [-1, 1] and the same values (measured on 2.15.1
// with ITEX loaded). Every op that reads such a tensor reads its range too, so two results agree
// when the floats they stand for do: within one quantization step of either range. The integers
// of a quantized output without a range (UniformQuantize's, whose scales are inputs) are still
// compared exactly.
#include <optional>

#include "kernels/host_tensor.h"

namespace conformance::kernels {

// Whether `min` and `max` are the range of `values`: float tensors of one element, or of one
// element per index of `values`' last dimension (a range per channel).
bool IsRangeOf(const HostTensor& values, const HostTensor& min, const HostTensor& max);

// A quantized tensor and its range (IsRangeOf).
struct RangedTensor {
  const HostTensor& values;
  const HostTensor& min;
  const HostTensor& max;
};

// The float element `index` stands for: TensorFlow's reading of a quantized tensor with a range
// (the lowest integer is `min`, each step (max - min) / (2^bits - 1)).
double DequantizedAt(const RangedTensor& tensor, std::int64_t index);

// The worst element whose floats are further apart than one step of either range (expected and
// actual read DequantizedAt); nullopt when every one agrees.
std::optional<Mismatch> CompareDequantized(const RangedTensor& expected,
                                           const RangedTensor& actual);

}  // namespace conformance::kernels
