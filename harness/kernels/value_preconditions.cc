#include "kernels/value_preconditions.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

// Inputs that TensorFlow requires ordered element-wise: lower <= upper.
struct OrderedInputs {
  std::string lower, upper;
};

const std::map<std::string, OrderedInputs>& OrderedOps() {
  static const std::map<std::string, OrderedInputs> ops = {
      {"ClipByValue", {"clip_value_min", "clip_value_max"}},
  };
  return ops;
}

std::ptrdiff_t PreconditionInputIndex(const std::vector<std::pair<std::string, TF_DataType>>& names,
                                      const std::string& name) {
  const auto found = std::find_if(names.begin(), names.end(),
                                  [&](const auto& entry) { return entry.first == name; });
  return found == names.end() ? -1 : found - names.begin();
}

void CopyBoundElement(HostTensor& to, const HostTensor& from, std::int64_t index) {
  const std::size_t size = ElementSize(to.dtype);
  std::copy_n(from.bytes.begin() + static_cast<std::ptrdiff_t>(index * size), size,
              to.bytes.begin() + static_cast<std::ptrdiff_t>(index * size));
}

// Element-wise lower <= upper, moving bytes (no rounding of int64 extremes through a double).
void OrderBounds(HostTensor& lower, HostTensor& upper) {
  const std::size_t size = ElementSize(lower.dtype);
  for (std::int64_t i = 0; i < lower.NumElements(); ++i) {
    const double low = lower.At(i), high = upper.At(i);
    if (std::isnan(low) && std::isnan(high)) {
      WriteElement(lower.dtype, lower.bytes.data(), i, 0.0);
      WriteElement(upper.dtype, upper.bytes.data(), i, 0.0);
    } else if (std::isnan(low)) {
      CopyBoundElement(lower, upper, i);
    } else if (std::isnan(high)) {
      CopyBoundElement(upper, lower, i);
    } else if (low > high) {
      std::swap_ranges(lower.bytes.begin() + static_cast<std::ptrdiff_t>(i * size),
                       lower.bytes.begin() + static_cast<std::ptrdiff_t>((i + 1) * size),
                       upper.bytes.begin() + static_cast<std::ptrdiff_t>(i * size));
    }
  }
}

}  // namespace

void MeetValuePreconditions(const std::string& op,
                            const std::vector<std::pair<std::string, TF_DataType>>& names,
                            std::vector<HostTensor>& inputs) {
  const auto found = OrderedOps().find(op);
  if (found == OrderedOps().end()) return;
  const std::ptrdiff_t lower = PreconditionInputIndex(names, found->second.lower);
  const std::ptrdiff_t upper = PreconditionInputIndex(names, found->second.upper);
  if (lower < 0 || upper < 0 || static_cast<std::size_t>(std::max(lower, upper)) >= inputs.size())
    return;
  HostTensor& low = inputs[static_cast<std::size_t>(lower)];
  HostTensor& high = inputs[static_cast<std::size_t>(upper)];
  // Generated cases give every input one shape; bounds of other shapes broadcast, and are left.
  if (low.dtype != high.dtype || low.shape != high.shape) return;
  OrderBounds(low, high);
}

}  // namespace conformance::kernels
