#include "latency_samples.h"

#include <algorithm>
#include <cstddef>

namespace conformance::bench {
namespace {

// Room for a typical run without reallocating inside the timed loop (reallocation
// is amortised anyway; this just keeps it out of the first few thousand samples).
constexpr std::size_t kExpectedSamples = 1 << 16;

double Quantile(std::vector<double>& values, double q) {
  const auto index = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

}  // namespace

LatencySamples::LatencySamples() { samples_.reserve(kExpectedSamples); }

void LatencySamples::Publish(benchmark::State& state) {
  if (samples_.empty()) return;
  state.counters["median_us"] = Quantile(samples_, 0.5) / 1e3;
  state.counters["p90_us"] = Quantile(samples_, 0.9) / 1e3;
}

}  // namespace conformance::bench
