#pragma once
// Per-operation latency samples and their median. Google Benchmark reports a mean per
// iteration; on a noisy machine a handful of descheduled iterations move a mean a lot, so
// latency targets are judged on the median of individual operations instead.
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

namespace conformance::bench {

class LatencySamples {
 public:
  LatencySamples();
  void Add(std::chrono::nanoseconds latency) { samples_.push_back(latency.count()); }
  // Sets counters "median_us" and "p90_us" on `state` (nothing when there are no samples).
  void Publish(benchmark::State& state);

 private:
  std::vector<double> samples_;  // nanoseconds
};

}  // namespace conformance::bench
