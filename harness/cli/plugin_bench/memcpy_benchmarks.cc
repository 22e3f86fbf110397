#include "memcpy_benchmarks.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "call_checks.h"
#include "copy_call.h"
#include "runtime/plugin_call.h"
#include "runtime/stream.h"
#include "sizes.h"
#include "touched_host_buffer.h"

namespace conformance::bench {
namespace {

enum class Mode { kAsyncQueued, kAsyncRoundTrip, kSync };

struct CopyCase {
  const char* name;
  Direction direction;
  Mode mode;
};

constexpr CopyCase kCopyCases[] = {
    {"htod_async", Direction::kHtoD, Mode::kAsyncQueued},
    {"htod_async_roundtrip", Direction::kHtoD, Mode::kAsyncRoundTrip},
    {"htod_sync", Direction::kHtoD, Mode::kSync},
    {"dtoh_async", Direction::kDtoH, Mode::kAsyncQueued},
    {"dtoh_async_roundtrip", Direction::kDtoH, Mode::kAsyncRoundTrip},
    {"dtoh_sync", Direction::kDtoH, Mode::kSync},
    {"dtod_async", Direction::kDtoD, Mode::kAsyncQueued},
    {"dtod_async_roundtrip", Direction::kDtoD, Mode::kAsyncRoundTrip},
    {"dtod_sync", Direction::kDtoD, Mode::kSync},
};

// Queued copies per synchronisation: enough that one synchronisation (two thread wake-ups
// in a threaded plugin) is a small share of a batch, few enough that small copies still
// finish a batch quickly: 64 MiB per batch, at most 1024 copies, at least one.
std::uint64_t CopiesPerSync(std::uint64_t size) {
  constexpr std::uint64_t kBatchBytes = std::uint64_t{64} << 20;
  constexpr std::uint64_t kMaxCopies = 1024;
  return std::clamp<std::uint64_t>(kBatchBytes / size, 1, kMaxCopies);
}

// One timed iteration: `copies` copies, complete on return.
bool CopyIteration(benchmark::State& state, CopyOperands& c, const CopyCase& copy,
                   std::uint64_t copies) {
  const bool async = copy.mode != Mode::kSync;
  for (std::uint64_t i = 0; i < copies; ++i) {
    IssueCopy(c, copy.direction, async);
    if (Failed(state, c.status, CopyCallbackName(copy.direction, async))) return false;
  }
  if (!async) return true;
  c.se.block_host_until_done(c.device, c.stream, c.status);
  return !Failed(state, c.status, "block_host_until_done");
}

void RunPluginCopy(benchmark::State& state, const BenchTarget& target, const CopyCase& copy,
                   std::uint64_t size) {
  runtime::Device& device = target.wrapped_device();
  TouchedHostBuffer host(size, std::byte{0x5a});
  auto a = device.Allocate(size);
  if (Failed(state, a.status())) return;
  std::optional<runtime::DeviceBuffer> b;
  if (copy.direction == Direction::kDtoD) {
    auto allocated = device.Allocate(size);
    if (Failed(state, allocated.status())) return;
    b = std::move(allocated).value();
  }
  std::optional<runtime::Stream> stream;
  if (copy.mode != Mode::kSync) {
    auto created = device.CreateStream();
    if (Failed(state, created.status())) return;
    stream = std::move(created).value();
  }
  // Touch the device buffers: their first write may fault pages in (the reference plugin's
  // arena is lazily committed), which must not land in the timed loop.
  if (Failed(state, device.SyncMemcpyHtoD(a->All(), host.data(), size))) return;
  if (b && Failed(state, device.SyncMemcpyHtoD(b->All(), host.data(), size))) return;

  runtime::OwnedTfStatus status;
  status.Reset();
  CopyOperands operands{target.se(),
                        target.device(),
                        stream ? stream->get() : nullptr,
                        a->All().ToC(),
                        b ? b->All().ToC() : SP_DeviceMemoryBase{},
                        host.data(),
                        size,
                        status.get()};
  const std::uint64_t copies = copy.mode == Mode::kAsyncQueued ? CopiesPerSync(size) : 1;
  // Warm-up: caches, TLBs, whatever the plugin sets up lazily.
  if (!CopyIteration(state, operands, copy, 1)) return;
  for (auto _ : state) {
    if (!CopyIteration(state, operands, copy, copies)) break;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * copies * size));
  if (copies > 1) state.counters["copies_per_sync"] = static_cast<double>(copies);
}

// The baseline: what this machine's memcpy does with buffers of the same size.
void RunHostMemcpy(benchmark::State& state, std::uint64_t size) {
  TouchedHostBuffer source(size, std::byte{0x5a});
  TouchedHostBuffer destination(size, std::byte{0});
  std::byte* const to = destination.data();
  benchmark::DoNotOptimize(to);  // the copy's destination escapes: it must really happen
  std::memcpy(to, source.data(), size);
  for (auto _ : state) {
    std::memcpy(to, source.data(), size);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

}  // namespace

void RegisterMemcpyBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets) {
  // Interleaved by size, then case, then plugin: the runs compared with each other run next
  // to each other, so slow drifts of a noisy machine affect them alike.
  for (const std::uint64_t size : CopySizes()) {
    const std::string label = SizeLabel(size);
    const std::string baseline = "memcpy/host_memcpy/" + label;
    registry
        .Register({baseline, kHostRole, Metric::kBandwidth, ""},
                  [size](benchmark::State& state) { RunHostMemcpy(state, size); })
        ->Unit(benchmark::kMicrosecond);
    for (const CopyCase& copy : kCopyCases) {
      for (BenchTarget* target : targets) {
        registry
            .Register({std::string("memcpy/") + copy.name + "/" + label, target->role(),
                       Metric::kBandwidth, baseline},
                      [target, copy, size](benchmark::State& state) {
                        RunPluginCopy(state, *target, copy, size);
                      })
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

}  // namespace conformance::bench
