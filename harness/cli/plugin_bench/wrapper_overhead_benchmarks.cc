#include "wrapper_overhead_benchmarks.h"

#include "call_checks.h"
#include "runtime/plugin_call.h"
#include "runtime/stream.h"
#include "touched_host_buffer.h"

namespace conformance::bench {
namespace {

// get_stream_status: the cheapest status-returning call, so the wrapper's share is largest.
void RunStreamStatus(benchmark::State& state, const BenchTarget& target, bool wrapped) {
  auto stream = target.wrapped_device().CreateStream();
  if (Failed(state, stream.status())) return;
  runtime::OwnedTfStatus status;
  status.Reset();
  for (auto _ : state) {
    if (wrapped) {
      if (Failed(state, stream->GetStatus())) break;
    } else {
      target.se().get_stream_status(target.device(), stream->get(), status.get());
      if (Failed(state, status.get(), "get_stream_status")) break;
    }
  }
}

// A 4 KiB synchronous copy: a typical small call that does real work.
void RunSmallSyncCopy(benchmark::State& state, const BenchTarget& target, bool wrapped) {
  constexpr std::uint64_t kSize = 4096;
  runtime::Device& device = target.wrapped_device();
  auto buffer = device.Allocate(kSize);
  if (Failed(state, buffer.status())) return;
  TouchedHostBuffer host(kSize, std::byte{0x5a});
  runtime::OwnedTfStatus status;
  status.Reset();
  SP_DeviceMemoryBase destination = buffer->All().ToC();
  if (Failed(state, device.SyncMemcpyHtoD(buffer->All(), host.data(), kSize))) return;
  for (auto _ : state) {
    if (wrapped) {
      if (Failed(state, device.SyncMemcpyHtoD(buffer->All(), host.data(), kSize))) break;
    } else {
      target.se().sync_memcpy_htod(target.device(), &destination, host.data(), kSize, status.get());
      if (Failed(state, status.get(), "sync_memcpy_htod")) break;
    }
  }
}

}  // namespace

void RegisterWrapperOverheadBenchmarks(CaseRegistry& registry,
                                       std::span<BenchTarget* const> targets) {
  for (const bool wrapped : {false, true}) {
    const std::string how = wrapped ? "wrapper" : "raw";
    for (BenchTarget* target : targets) {
      registry
          .Register({"wrapper_overhead/get_stream_status/" + how, target->role(),
                     Metric::kTimePerIteration, ""},
                    [target, wrapped](benchmark::State& state) {
                      RunStreamStatus(state, *target, wrapped);
                    })
          ->Unit(benchmark::kNanosecond);
    }
  }
  for (const bool wrapped : {false, true}) {
    const std::string how = wrapped ? "wrapper" : "raw";
    for (BenchTarget* target : targets) {
      registry
          .Register({"wrapper_overhead/sync_memcpy_htod_4KiB/" + how, target->role(),
                     Metric::kTimePerIteration, ""},
                    [target, wrapped](benchmark::State& state) {
                      RunSmallSyncCopy(state, *target, wrapped);
                    })
          ->Unit(benchmark::kNanosecond);
    }
  }
}

}  // namespace conformance::bench
