#pragma once
// Copy bandwidth per direction (htod, dtoh, dtod) at every copy size, three ways:
//   <dir>_async            bandwidth of asynchronous copies: a batch of copies queued on a
//                          stream, one block_host_until_done per batch (how bandwidth is
//                          usually measured: copies in flight, synchronisation amortised);
//   <dir>_async_roundtrip  one asynchronous copy + block_host_until_done per iteration: the
//                          latency a caller that needs the data at once sees, wake-ups and all;
//   <dir>_sync             the synchronous callback.
// Plain host memcpy of the same buffers and sizes runs in the same run as the baseline.
#include <span>

#include "bench_target.h"
#include "case_registry.h"

namespace conformance::bench {

void RegisterMemcpyBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets);

}  // namespace conformance::bench
