#pragma once
// Latencies of the synchronisation primitives, on an idle stream, as medians of individual
// operations (LatencySamples):
//  - event record -> COMPLETE, observed by polling get_event_status (what TensorFlow's
//    event manager does) and by block_host_for_event;
//  - host_callback: from the host_callback call to the moment the callback starts running.
// Each back to back and after 1 ms of idleness (see latency_benchmarks.cc).
#include <span>

#include "bench_target.h"
#include "case_registry.h"

namespace conformance::bench {

void RegisterLatencyBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets);

}  // namespace conformance::bench
