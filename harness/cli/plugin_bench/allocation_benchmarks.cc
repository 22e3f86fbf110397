#include "allocation_benchmarks.h"

#include <string>

#include "sizes.h"

namespace conformance::bench {
namespace {

// A pair per iteration: timing allocate alone would need a growing set of live buffers
// (and eventually a full device) or PauseTiming around every free, which costs more than
// the allocation being measured.
void RunAllocateDeallocate(benchmark::State& state, const BenchTarget& target, std::uint64_t size) {
  const SP_StreamExecutor& se = target.se();
  const SP_Device* device = target.device();
  for (auto _ : state) {
    SP_DeviceMemoryBase memory{};
    memory.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;  // TensorFlow's pre-fill
    se.allocate(device, size, /*memory_space=*/0, &memory);
    if (memory.opaque == nullptr) {
      state.SkipWithError(("allocate(" + SizeLabel(size) + ") failed: opaque is NULL").c_str());
      break;
    }
    // TensorFlow frees with a rebuilt struct (opaque, size, payload), not the plugin's own.
    SP_DeviceMemoryBase rebuilt{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, memory.opaque,
                                memory.size, memory.payload};
    se.deallocate(device, &rebuilt);
  }
}

}  // namespace

void RegisterAllocationBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets) {
  for (const std::uint64_t size : AllocationSizes()) {
    for (BenchTarget* target : targets) {
      registry
          .Register({"allocate_deallocate/" + SizeLabel(size), target->role(),
                     Metric::kTimePerIteration, ""},
                    [target, size](benchmark::State& state) {
                      RunAllocateDeallocate(state, *target, size);
                    })
          ->Unit(benchmark::kNanosecond);
    }
  }
}

}  // namespace conformance::bench
