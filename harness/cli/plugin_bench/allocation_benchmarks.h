#pragma once
// Device allocation cost: one allocate + deallocate pair per iteration, by size.
#include <span>

#include "bench_target.h"
#include "case_registry.h"

namespace conformance::bench {

void RegisterAllocationBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets);

}  // namespace conformance::bench
