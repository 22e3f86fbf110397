#pragma once
// Every benchmark plugin_bench registers, with what the comparison table needs to know
// about it: which comparison row it belongs to (key), whose run it is (role), which figure
// to compare, and for copies the host-memcpy row it is measured against.
//
// Benchmark names are "<key>/<role>", e.g. "memcpy/htod_async/1MiB/candidate", so a
// --benchmark_filter on the key selects the same benchmark for every plugin.
#include <functional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace conformance::bench {

enum class Metric {
  kBandwidth,         // bytes_per_second (SetBytesProcessed); higher is better
  kMedianLatency,     // the median_us counter (LatencySamples); lower is better
  kTimePerIteration,  // real time per iteration; lower is better
};

// Roles that are not a plugin.
inline constexpr const char* kHostRole = "host";

struct CaseInfo {
  std::string key;   // "memcpy/htod_async/1MiB"
  std::string role;  // "candidate", "reference" or kHostRole
  Metric metric = Metric::kTimePerIteration;
  std::string baseline_key;  // copies: "memcpy/host_memcpy/1MiB"; empty otherwise
};

class CaseRegistry {
 public:
  // Registers `body` with Google Benchmark under "<key>/<role>", measured in real time
  // (plugin work runs on other threads, so the calling thread's CPU time means nothing).
  benchmark::internal::Benchmark* Register(CaseInfo info,
                                           std::function<void(benchmark::State&)> body);

  const std::vector<CaseInfo>& cases() const { return cases_; }

 private:
  std::vector<CaseInfo> cases_;  // in registration order, which is also the table's order
};

std::string BenchmarkName(const CaseInfo& info);

}  // namespace conformance::bench
