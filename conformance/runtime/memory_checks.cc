// Device allocation edge cases: sizes, what allocate writes, alignment, exhaustion, NULL frees.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "isolate/in_flight.h"
#include "runtime/allocation_probe.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

using runtime::DeviceBuffer;
using runtime::ErrorKind;

// Odd sizes and sizes around page and granule boundaries, plus a large one. Other checks
// allocate even sizes only, so a plugin that mishandles odd sizes fails here alone.
constexpr std::uint64_t kEdgeSizes[] = {1,    3,    17,    255,     257,           4095,
                                        4096, 4097, 65537, 1 << 20, (16 << 20) + 1};
constexpr std::uint64_t kLargeSize = std::uint64_t{256} << 20;  // head and tail verified only
constexpr std::uint64_t kEvenSizes[] = {2, 6, 64, 254, 4096, 65538, 4 << 20};
// TensorFlow's allocators hand out 64-byte aligned memory (Allocator::kAllocatorAlignment)
// and its kernels (Eigen) assume it; a plugin's device memory must be at least as aligned.
constexpr std::uint64_t kRequiredAlignment = 64;

std::string Size(std::uint64_t size) { return std::to_string(size); }

Verdict AllocateZero(CheckEnv& env) {
  auto buffer = env.device.Allocate(0);
  if (!buffer.ok()) {
    if (buffer.error().kind == ErrorKind::kOutParamNotWritten) {
      // TensorFlow pre-fills opaque with NULL, so there this is a refusal: only a warning.
      return Verdict::Warning(
          "allocate(0) returned without writing SP_DeviceMemoryBase.opaque (TensorFlow pre-fills "
          "NULL, so it reads as a refusal there); write NULL to refuse it");
    }
    return Verdict::Pass({{"result", "opaque NULL (refused)"}});
  }
  buffer->Reset();  // a zero-byte allocation must be freeable like any other
  auto after = env.device.Allocate(64);
  if (!after.ok())
    return Verdict::CallFailed(after.error(), "allocate(64) after a zero-byte allocation");
  return Verdict::Pass({{"result", "a buffer (freed again)"}});
}

// "live allocations of 4095 and 4097 bytes overlap" for the first two live buffers whose
// ranges [opaque, opaque + size) overlap; nullopt when none do.
std::optional<std::string> FirstOverlap(const std::vector<DeviceBuffer>& buffers) {
  std::vector<const DeviceBuffer*> sorted;
  sorted.reserve(buffers.size());
  for (const auto& buffer : buffers) sorted.push_back(&buffer);
  std::sort(sorted.begin(), sorted.end(),
            [](auto* a, auto* b) { return a->opaque() < b->opaque(); });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const auto* lower = sorted[i - 1];
    if (static_cast<const char*>(lower->opaque()) + lower->requested() >
        static_cast<const char*>(sorted[i]->opaque())) {
      return "live allocations of " + Size(lower->requested()) + " and " +
             Size(sorted[i]->requested()) + " bytes overlap";
    }
  }
  return std::nullopt;
}

// Every size allocates, the buffers do not overlap, and all bytes round-trip.
Verdict AllocateSizes(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  std::vector<DeviceBuffer> buffers;
  for (std::uint64_t size : kEdgeSizes) {
    auto buffer = env.device.Allocate(size);
    if (!buffer.ok()) {
      return Verdict::CallFailed(buffer.error(), "allocate(" + Size(size) + ")",
                                 {{"requested_bytes", std::to_string(size)}});
    }
    const auto pattern = SeededBytes(env.seed + size, size);
    if (auto status = WriteDevice(*stream, buffer->All(), pattern); !status.ok()) {
      return Verdict::CallFailed(status.error(), "writing all " + Size(size) + " bytes");
    }
    auto read = ReadDevice(*stream, buffer->All());
    if (!read.ok())
      return Verdict::CallFailed(read.error(), "reading back " + Size(size) + " bytes");
    if (auto mismatch = FirstMismatch(read->data(), pattern.data(), size)) {
      return BlameWrongLegOrKeep(
          *stream, env.seed,
          Verdict::Fail("a " + Size(size) +
                        "-byte allocation does not hold its bytes: " + *mismatch));
    }
    buffers.push_back(std::move(buffer.value()));
  }
  if (auto overlap = FirstOverlap(buffers)) {
    // Each buffer was written right after it was allocated, so memory handed out twice holds a
    // later buffer's bytes by now; if every buffer still holds its own, the ranges overlap only
    // as numbers: opaque is not where the bytes are.
    for (const DeviceBuffer& buffer : buffers) {
      const std::uint64_t size = buffer.requested();
      auto read = ReadDevice(*stream, buffer.All());
      if (!read.ok())
        return Verdict::CallFailed(read.error(), "reading back " + Size(size) + " bytes");
      if (FirstMismatch(read->data(), SeededBytes(env.seed + size, size).data(), size))
        return Verdict::Fail(*overlap + ", and writing one changed the other");
    }
    return Verdict::Fail(
        *overlap + " as address ranges, yet each holds its own bytes: allocate's opaque is not " +
            "the address of device memory. " + std::string(in_flight::kInteriorPointerNote),
        {{"failing_call", std::string(in_flight::kOpaqueNotAddressCall)},
         {"problem", std::string(in_flight::kOpaqueNotAddressProblem)}});
  }
  // A large allocation: its first and last 4 KiB round-trip (offsets into the allocation).
  auto large = env.device.Allocate(kLargeSize);
  if (!large.ok()) return Verdict::CallFailed(large.error(), "allocate(" + Size(kLargeSize) + ")");
  for (std::uint64_t offset : {std::uint64_t{0}, kLargeSize - 4096}) {
    const auto pattern = SeededBytes(env.seed ^ offset, 4096);
    const auto range = large->Range(offset, 4096);
    if (auto status = WriteDevice(*stream, range, pattern); !status.ok()) {
      return Verdict::CallFailed(status.error(), "writing 4096 bytes at offset " + Size(offset) +
                                                     " of a large allocation");
    }
    auto read = ReadDevice(*stream, range);
    if (!read.ok()) return Verdict::CallFailed(read.error(), "reading a large allocation");
    if (auto mismatch = FirstMismatch(read->data(), pattern.data(), 4096)) {
      // Bytes at an offset are also what a copy ignoring the offset gets wrong: its fault first.
      return BlameWrongLegOrKeep(
          *stream, env.seed,
          Verdict::Fail("the large allocation at offset " + Size(offset) + ": " + *mismatch));
    }
  }
  return Verdict::Pass({{"sizes", "1..16 MiB+1 (11 sizes) and 256 MiB"}});
}

Verdict AllocateSizeWritten(CheckEnv& env) {
  std::string problems;
  for (std::uint64_t size : kEvenSizes) {
    auto buffer = env.device.Allocate(size);
    if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate(" + Size(size) + ")");
    if (buffer->struct_size_after() == 0)
      problems += "allocate(" + Size(size) + ") set struct_size to 0; ";
    if (!buffer->size_written()) {
      problems += "allocate(" + Size(size) + ") did not write size; ";
    } else if (buffer->size() < size) {
      problems += "allocate(" + Size(size) + ") wrote size " + Size(buffer->size()) + "; ";
    }
  }
  if (!problems.empty()) return Verdict::Fail(problems.substr(0, problems.size() - 2));
  return Verdict::Pass();
}

Verdict AllocateAlignment(CheckEnv& env) {
  std::vector<DeviceBuffer> live;  // kept alive together, so a bump allocator shows its steps
  std::uintptr_t combined = 0;
  auto take = [&](std::uint64_t size) -> std::optional<Verdict> {
    auto buffer = env.device.Allocate(size);
    if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate(" + Size(size) + ")");
    const auto address = reinterpret_cast<std::uintptr_t>(buffer->opaque());
    combined |= address;
    if (address % kRequiredAlignment != 0) {
      // How far off decides whether TensorFlow was measured to cope (model/tensorflow_reach.h).
      const std::uint64_t alignment = std::uint64_t{1} << std::countr_zero(address);
      return Verdict::Fail("allocate(" + Size(size) + ") returned " + std::to_string(address) +
                               ", not " + std::to_string(kRequiredAlignment) + "-byte aligned",
                           {{"observed_alignment", std::to_string(alignment)}});
    }
    live.push_back(std::move(buffer.value()));
    return std::nullopt;
  };
  for (std::uint64_t size : kEvenSizes) {
    if (auto verdict = take(size)) return *verdict;
  }
  for (std::uint64_t size = 2; size <= 130; size += 4) {
    if (auto verdict = take(size)) return *verdict;
  }
  const std::uint64_t observed = combined == 0 ? 0 : std::uint64_t{1} << std::countr_zero(combined);
  return Verdict::Pass(
      {{"observed_alignment", std::to_string(observed)}, {"required_alignment", "64"}});
}

// host_memory_allocate backs TensorFlow's host allocations (staging, pinned tensors) under the
// same 64-byte promise Eigen's aligned kernels rely on.
Verdict HostAllocateAlignment(CheckEnv& env) {
  std::vector<runtime::HostBuffer> live;  // kept alive together, as for device memory
  std::uintptr_t combined = 0;
  for (std::uint64_t size :
       {1ull, 3ull, 17ull, 64ull, 100ull, 255ull, 4096ull, 4097ull, 65537ull, 1ull << 20}) {
    auto buffer = env.device.AllocateHost(size);
    if (!buffer.ok())
      return Verdict::CallFailed(buffer.error(), "host_memory_allocate(" + Size(size) + ")");
    const auto address = reinterpret_cast<std::uintptr_t>(buffer->data());
    combined |= address;
    if (address % kRequiredAlignment != 0) {
      return Verdict::Fail("host_memory_allocate(" + Size(size) + ") returned " +
                               std::to_string(address) + ", not " +
                               std::to_string(kRequiredAlignment) + "-byte aligned",
                           {{"failing_call", "host_memory_allocate"}, {"problem", "misaligned"}});
    }
    live.push_back(std::move(buffer.value()));
  }
  const std::uint64_t observed = combined == 0 ? 0 : std::uint64_t{1} << std::countr_zero(combined);
  return Verdict::Pass(
      {{"observed_alignment", std::to_string(observed)}, {"required_alignment", "64"}});
}

Verdict BeyondCapacity(CheckEnv& env) {
  // Far beyond any device: 1 PiB and 4 EiB. The answer must be opaque NULL, not a crash.
  std::string unwritten;
  for (std::uint64_t size : {std::uint64_t{1} << 50, std::uint64_t{1} << 62}) {
    auto buffer = env.device.Allocate(size);
    // Memory that works at its far end is memory (a host device on an overcommitting kernel);
    // what does not is a bogus or truncated buffer TensorFlow would write past.
    if (buffer.ok() && !runtime::UsableNearEnd(env.device, *buffer, size)) {
      return Verdict::Fail(
          "allocate(" + Size(size) +
              ") succeeded, but bytes copied to its last offset do not read "
              "back: the buffer is not that large (TensorFlow would write past "
              "its end)",
          {{"failing_call", "allocate"}, {"problem", runtime::kImpossibleAllocation}});
    }
    // Never written reads as TensorFlow's pre-filled NULL there: a refusal, so only a warning.
    if (buffer.error().kind == ErrorKind::kOutParamNotWritten && unwritten.empty())
      unwritten = Size(size);
  }
  // And the device still works afterwards.
  auto after = env.device.Allocate(4096);
  if (!after.ok())
    return Verdict::CallFailed(after.error(), "allocate(4096) after refused huge allocations");
  if (!unwritten.empty()) {
    return Verdict::Warning("allocate(" + unwritten +
                            ") returned without writing opaque (TensorFlow pre-fills NULL, "
                            "so it reads as a refusal there); write NULL to refuse");
  }
  return Verdict::Pass();
}

Verdict DeallocateNull(CheckEnv& env) {
  env.device.DeallocateRaw(nullptr, 0, 0);
  auto after = env.device.Allocate(4096);
  if (!after.ok())
    return Verdict::CallFailed(after.error(), "allocate(4096) after deallocate(NULL)");
  return Verdict::Pass();
}

}  // namespace

std::vector<TestUnit> MemoryUnits() {
  return {
      // Alone: TensorFlow never asks for 0 bytes, so a crash there is this check's finding only.
      MakeRuntimeUnit("runtime.memory.zero_size", "runtime", {"runtime.memory.allocate.zero"},
                      [](CheckEnv& env) {
                        RunCheck(env, "runtime.memory.allocate.zero",
                                 [&] { return AllocateZero(env); });
                      }),
      MakeRuntimeUnit(
          "runtime.memory.allocation", "runtime",
          {"runtime.memory.allocate.sizes", "runtime.memory.allocate.size_written",
           "runtime.memory.allocate.alignment", "runtime.memory.host_allocate.alignment"},
          [](CheckEnv& env) {
            RunCheck(env, "runtime.memory.allocate.sizes", [&] { return AllocateSizes(env); });
            RunCheck(env, "runtime.memory.allocate.size_written",
                     [&] { return AllocateSizeWritten(env); });
            RunCheck(env, "runtime.memory.allocate.alignment",
                     [&] { return AllocateAlignment(env); });
            RunCheck(env, "runtime.memory.host_allocate.alignment",
                     [&] { return HostAllocateAlignment(env); });
          }),
      MakeRuntimeUnit("runtime.memory.limits", "runtime",
                      {"runtime.memory.allocate.beyond_capacity", "runtime.memory.deallocate.null"},
                      [](CheckEnv& env) {
                        RunCheck(env, "runtime.memory.allocate.beyond_capacity",
                                 [&] { return BeyondCapacity(env); });
                        RunCheck(env, "runtime.memory.deallocate.null",
                                 [&] { return DeallocateNull(env); });
                      })};
}

}  // namespace conformance::runtime_checks
