#include "kernels/quantized_ranges.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

int BitsOf(TF_DataType dtype) { return 8 * static_cast<int>(ElementSize(dtype)); }

// Which element of the range tensors `index` reads: the only one, or its channel's.
std::int64_t RangeIndex(const RangedTensor& tensor, std::int64_t index) {
  const std::int64_t ranges = tensor.min.NumElements();
  return ranges == 1 ? 0 : index % ranges;
}

double StepAt(const RangedTensor& tensor, std::int64_t index) {
  const std::int64_t range = RangeIndex(tensor, index);
  const double steps = std::ldexp(1.0, BitsOf(tensor.values.dtype)) - 1.0;
  return (tensor.max.At(range) - tensor.min.At(range)) / steps;
}

}  // namespace

bool IsRangeOf(const HostTensor& values, const HostTensor& min, const HostTensor& max) {
  if (!IsQuantized(values.dtype) || min.dtype != TF_FLOAT || max.dtype != TF_FLOAT) return false;
  if (min.shape != max.shape) return false;
  if (min.NumElements() == 1) return min.shape.size() <= 1;
  return min.shape.size() == 1 && !values.shape.empty() && values.shape.back() == min.shape[0];
}

double DequantizedAt(const RangedTensor& tensor, std::int64_t index) {
  const std::int64_t range = RangeIndex(tensor, index);
  const double lowest =
      IsUnsigned(tensor.values.dtype) ? 0.0 : -std::ldexp(1.0, BitsOf(tensor.values.dtype) - 1);
  return tensor.min.At(range) + (tensor.values.At(index) - lowest) * StepAt(tensor, index);
}

std::optional<Mismatch> CompareDequantized(const RangedTensor& expected,
                                           const RangedTensor& actual) {
  std::optional<Mismatch> worst;
  double worst_excess = 1.0;
  const std::int64_t n = expected.values.NumElements();
  for (std::int64_t i = 0; i < n; ++i) {
    const double want = DequantizedAt(expected, i);
    const double got = DequantizedAt(actual, i);
    // Each encoding rounds to its own step; one step of either covers both roundings.
    const double allowed = std::max(std::abs(StepAt(expected, i)), std::abs(StepAt(actual, i)));
    const double distance = std::abs(want - got);
    const bool outside = std::isnan(distance) ? std::isnan(want) != std::isnan(got)
                                              : distance > allowed * (1.0 + 1e-9);
    if (!outside) continue;
    if (!worst) worst = Mismatch{};
    ++worst->mismatched;
    const double excess = allowed > 0 ? distance / allowed : HUGE_VAL;
    if (worst->mismatched == 1 || excess > worst_excess) {
      worst_excess = excess;
      worst->flat_index = i;
      worst->index = IndexString(expected.values.shape, i);
      worst->expected = want;
      worst->actual = got;
    }
  }
  return worst;
}

}  // namespace conformance::kernels
