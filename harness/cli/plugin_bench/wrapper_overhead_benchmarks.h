#pragma once
// What the checked runtime wrappers (harness/runtime) cost on top of a raw callback, so the
// choice "raw callbacks in timed loops" is backed by a number: the same call once raw and
// once through its wrapper, on each plugin.
#include <span>

#include "bench_target.h"
#include "case_registry.h"

namespace conformance::bench {

void RegisterWrapperOverheadBenchmarks(CaseRegistry& registry,
                                       std::span<BenchTarget* const> targets);

}  // namespace conformance::bench
