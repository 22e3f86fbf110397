#include "kernels/broadcast.h"

#include <algorithm>

namespace reference_plugin::kernels {

Status BroadcastIndex::make(const Shape& x, const Shape& y, BroadcastIndex* out) {
  const std::size_t rank = std::max(x.size(), y.size());
  // Align at the last dimension: missing leading dimensions count as size 1.
  auto padded = [rank](const Shape& s) {
    Shape p(rank - s.size(), 1);
    p.insert(p.end(), s.begin(), s.end());
    return p;
  };
  const Shape px = padded(x), py = padded(y);
  const std::vector<int64_t> x_steps = row_major_strides(px), y_steps = row_major_strides(py);

  BroadcastIndex result;
  result.output_shape_.resize(rank);
  result.x_strides_.resize(rank);
  result.y_strides_.resize(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (px[d] != py[d] && px[d] != 1 && py[d] != 1) {
      return invalid_argument("Incompatible shapes: ", shape_string(x), " vs. ", shape_string(y));
    }
    // A size-1 dimension against a size-0 one broadcasts to 0, as in NumPy.
    result.output_shape_[d] = px[d] == 1 ? py[d] : px[d];
    result.x_strides_[d] = px[d] == 1 ? 0 : x_steps[d];
    result.y_strides_[d] = py[d] == 1 ? 0 : y_steps[d];
  }
  *out = std::move(result);
  return Status();
}

}  // namespace reference_plugin::kernels
