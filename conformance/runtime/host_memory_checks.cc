// host_memory_allocate hands out at least the bytes asked for: several live allocations of the
// asked sizes are disjoint, and each holds a pattern written end to end after all of them were
// written. Judged before a byte is written, so a short block is a verdict, not heap damage that
// crashes (or not) in whichever call frees it next.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "check_support.h"
#include "runtime/problems.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

// Sizes TensorFlow's staging buffers take (small tensors up to a few MiB), kept live together.
constexpr std::uint64_t kHostSizes[] = {64, 100, 4096, 4097, 65537, 1 << 20, (4 << 20) + 3};

std::string HostSize(std::uint64_t size) { return std::to_string(size); }

const Details kShortBlock = {{"failing_call", "host_memory_allocate"},
                             {"problem", runtime::kHostAllocationShort}};

// "host_memory_allocate(100) and host_memory_allocate(4096) ..." for the first two live buffers
// whose asked-for ranges [data, data + size) overlap; nullopt when none do.
std::optional<std::string> FirstOverlap(const std::vector<runtime::HostBuffer>& buffers) {
  std::vector<const runtime::HostBuffer*> sorted;
  for (const auto& buffer : buffers) sorted.push_back(&buffer);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->data() < b->data(); });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const auto* lower = sorted[i - 1];
    if (lower->bytes() + lower->size() > sorted[i]->bytes()) {
      return "host_memory_allocate(" + HostSize(lower->size()) + ") and host_memory_allocate(" +
             HostSize(sorted[i]->size()) + ") returned blocks " +
             HostSize(static_cast<std::uint64_t>(sorted[i]->bytes() - lower->bytes())) +
             " bytes apart: the first is shorter than asked, and both are live";
    }
  }
  return std::nullopt;
}

Verdict HostAllocateSizes(CheckEnv& env) {
  std::vector<runtime::HostBuffer> live;
  for (std::uint64_t size : kHostSizes) {
    auto buffer = env.device.AllocateHost(size);
    if (!buffer.ok())
      return Verdict::CallFailed(buffer.error(), "host_memory_allocate(" + HostSize(size) + ")");
    if (buffer->data() == nullptr)
      return Verdict::NotSupported("host_memory_allocate returns NULL (no pinned host memory)");
    live.push_back(std::move(buffer.value()));
  }
  if (auto overlap = FirstOverlap(live)) {
    return Verdict::Fail(*overlap + ". " + std::string(runtime::kHostAllocationShortConsequence),
                         kShortBlock);
  }
  // Every block written end to end first, then every one read back: a block that ends early
  // shares bytes with whatever lies behind it, which a later pattern overwrote.
  for (const auto& buffer : live) {
    const auto pattern = SeededBytes(env.seed + buffer.size(), buffer.size());
    std::copy(pattern.begin(), pattern.end(), buffer.bytes());
  }
  for (const auto& buffer : live) {
    const auto pattern = SeededBytes(env.seed + buffer.size(), buffer.size());
    if (auto mismatch = FirstMismatch(buffer.bytes(), pattern.data(), buffer.size())) {
      return Verdict::Fail(
          "host_memory_allocate(" + HostSize(buffer.size()) +
              ") does not hold its bytes once the other blocks are written: " + *mismatch + ". " +
              std::string(runtime::kHostAllocationShortConsequence),
          kShortBlock);
    }
  }
  return Verdict::Pass({{"sizes", "64 .. 4 MiB+3 (7 sizes), live together"}});
}

}  // namespace

std::vector<TestUnit> HostMemoryUnits() {
  // A unit of its own: if a short block makes the writes crash, no other check goes with it.
  return {MakeRuntimeUnit("runtime.memory.host_sizes", "runtime",
                          {runtime::kHostAllocationSizesCheck}, [](CheckEnv& env) {
                            RunCheck(env, runtime::kHostAllocationSizesCheck,
                                     [&] { return HostAllocateSizes(env); });
                          })};
}

}  // namespace conformance::runtime_checks
