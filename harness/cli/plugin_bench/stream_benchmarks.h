#pragma once
// Stream lifetime cost: create_stream + destroy_stream per iteration (an empty stream, so
// destroy has nothing to drain).
#include <span>

#include "bench_target.h"
#include "case_registry.h"

namespace conformance::bench {

void RegisterStreamBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets);

}  // namespace conformance::bench
