#include "kernels/case_footprint.h"

#include <unistd.h>

#include <cstdio>
#include <limits>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

std::string CaseLabel(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape) {
  std::string text = DtypeName(dtype) + " ";
  bool first = true;
  for (const core::Shape& dims : scenario.shapes.at(shape)) {
    text += (first ? "" : " x ") + core::ShapeString(dims);
    first = false;
  }
  return text;
}

}  // namespace

std::int64_t HostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::int64_t>(pages), page_size, &bytes)) return 0;
  return bytes;
}

std::int64_t InputBytes(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape) {
  std::int64_t total = 0;
  const auto& shapes = scenario.shapes.at(shape);
  for (std::size_t i = 0; i < scenario.inputs.size() && i < shapes.size(); ++i) {
    const TF_DataType input_dtype = scenario.inputs[i].dtype.value_or(dtype);
    std::int64_t elements = 1;
    for (std::int64_t dim : shapes[i]) {
      if (__builtin_mul_overflow(elements, dim, &elements)) return kSaturated;
    }
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(elements, static_cast<std::int64_t>(ElementSize(input_dtype)),
                               &bytes) ||
        __builtin_add_overflow(total, bytes, &total)) {
      return kSaturated;
    }
  }
  return total;
}

std::optional<std::string> OversizedCase(const KernelScenario& scenario, TF_DataType dtype,
                                         std::size_t shape, std::int64_t device_bytes,
                                         const std::string& holder) {
  const std::int64_t needed = InputBytes(scenario, dtype, shape);
  const std::string head = "case " + CaseLabel(scenario, dtype, shape) + " needs " +
                           ByteCountText(needed) + " for its inputs alone; ";
  if (device_bytes > 0 && needed > device_bytes) {
    return head + holder + " holds " + ByteCountText(device_bytes) + " (device_memory_usage)";
  }
  // The inputs are made on the host, and the reference plugin's come back there as well.
  const std::int64_t host = HostMemoryBytes();
  if (host > 0 && needed > host / 2) {
    return head + "the harness makes inputs on the host, which has " + ByteCountText(host) +
           " of memory";
  }
  return std::nullopt;
}

std::string ByteCountText(std::int64_t bytes) {
  if (bytes == kSaturated) return "more than 2^63 bytes";
  constexpr std::int64_t kMiB = std::int64_t{1} << 20, kGiB = std::int64_t{1} << 30;
  char text[48];
  // Device capacities are powers of two; case sizes are whatever the shapes make.
  if (bytes >= kGiB && bytes % kGiB == 0) {
    std::snprintf(text, sizeof text, "%lld GiB", static_cast<long long>(bytes / kGiB));
  } else if (bytes >= kMiB && bytes % kMiB == 0) {
    std::snprintf(text, sizeof text, "%lld MiB", static_cast<long long>(bytes / kMiB));
  } else if (bytes >= 1'000'000'000) {
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  } else if (bytes >= 1'000'000) {
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
  }
  return text;
}

}  // namespace conformance::kernels
