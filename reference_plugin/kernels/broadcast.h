#pragma once
// NumPy broadcasting, as TensorFlow's element-wise binary ops (and BatchMatMulV2's batch
// dimensions) apply it: shapes are aligned at their last dimension, and each pair of sizes must
// be equal or one of them 1; the result takes the larger size.
//
//   BroadcastIndex b;
//   REFERENCE_RETURN_IF_ERROR(BroadcastIndex::make(x.shape(), y.shape(), &b));
//   b.for_each([&](int64_t out, int64_t xi, int64_t yi) { z[out] = x[xi] + y[yi]; });
#include <cstdint>
#include <vector>

#include "kernels/tensor_shape.h"
#include "stream_executor/status.h"

namespace reference_plugin::kernels {

class BroadcastIndex {
 public:
  // INVALID_ARGUMENT "Incompatible shapes: [2,3] vs. [4]" when the shapes do not broadcast.
  static Status make(const Shape& x, const Shape& y, BroadcastIndex* out);

  const Shape& output_shape() const { return output_shape_; }

  // Calls fn(output_index, x_index, y_index) for every output element, in row-major order.
  template <typename Fn>
  void for_each(Fn&& fn) const;

 private:
  Shape output_shape_;
  // Per output dimension: how far x / y move for one step along it (0 where broadcast).
  std::vector<int64_t> x_strides_, y_strides_;
};

template <typename Fn>
void BroadcastIndex::for_each(Fn&& fn) const {
  const int64_t total = num_elements(output_shape_);
  if (total == 0) return;
  const std::size_t rank = output_shape_.size();
  std::vector<int64_t> coordinate(rank, 0);
  int64_t xi = 0, yi = 0;
  for (int64_t out = 0; out < total; ++out) {
    fn(out, xi, yi);
    // Odometer step: advance the last dimension, carrying into earlier ones.
    for (std::size_t d = rank; d-- > 0;) {
      xi += x_strides_[d];
      yi += y_strides_[d];
      if (++coordinate[d] < output_shape_[d]) break;
      xi -= x_strides_[d] * output_shape_[d];
      yi -= y_strides_[d] * output_shape_[d];
      coordinate[d] = 0;
    }
  }
}

}  // namespace reference_plugin::kernels
