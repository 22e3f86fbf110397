#include "stream_benchmarks.h"

#include "call_checks.h"
#include "runtime/plugin_call.h"

namespace conformance::bench {
namespace {

void RunCreateDestroyStream(benchmark::State& state, const BenchTarget& target) {
  const SP_StreamExecutor& se = target.se();
  const SP_Device* device = target.device();
  runtime::OwnedTfStatus status;
  status.Reset();
  for (auto _ : state) {
    SP_Stream stream = nullptr;
    se.create_stream(device, &stream, status.get());
    if (Failed(state, status.get(), "create_stream")) break;
    se.destroy_stream(device, stream);
  }
}

}  // namespace

void RegisterStreamBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets) {
  for (BenchTarget* target : targets) {
    registry
        .Register({"stream/create_destroy", target->role(), Metric::kTimePerIteration, ""},
                  [target](benchmark::State& state) { RunCreateDestroyStream(state, *target); })
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace conformance::bench
