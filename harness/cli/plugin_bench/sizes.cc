#include "sizes.h"

#include <array>

namespace conformance::bench {
namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

constexpr std::array<std::uint64_t, 5> kCopySizes = {4 * kKiB, 64 * kKiB, 1 * kMiB, 16 * kMiB,
                                                     256 * kMiB};
constexpr std::array<std::uint64_t, 6> kAllocationSizes = {256,      4 * kKiB,  64 * kKiB,
                                                           1 * kMiB, 16 * kMiB, 256 * kMiB};

}  // namespace

std::span<const std::uint64_t> CopySizes() { return kCopySizes; }
std::span<const std::uint64_t> AllocationSizes() { return kAllocationSizes; }

std::string SizeLabel(std::uint64_t bytes) {
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + "MiB";
  if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + "KiB";
  return std::to_string(bytes) + "B";
}

}  // namespace conformance::bench
