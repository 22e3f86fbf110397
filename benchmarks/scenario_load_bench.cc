// Loading and validating a generated scenario file (parse, validate, unroll, ordering analysis):
// the 10,006-step and the 999,996-step `repeat` of tests/scenario/scenario_text.h, the shape that
// once made validation quadratic. Issue 7 §3 targets: <= 100 ms for 10k steps, <= 10 s for 1M.
// The gtest bounds tests (tests/scenario/bounds_test.cc) keep those limits; this is the figure
// of record (BENCHMARKS.md, "Scenario files").
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>

#include "scenario/scenario_set.h"
#include "scenario_text.h"

namespace conformance::scenario {
namespace {

void BM_LoadAndValidate(benchmark::State& state) {
  const auto steps = static_cast<std::size_t>(state.range(0));
  const std::string text = testing::RepeatScenarioText(steps);  // generated outside the timing
  std::size_t ops = 0;
  for (auto _ : state) {
    ErrorList errors("bench.yaml");
    const auto loaded = LoadScenarioText(text, "bench.yaml", errors);
    if (!errors.empty()) throw std::runtime_error(errors.errors().front().ToString());
    if (loaded.size() != 1) throw std::runtime_error("expected one scenario");
    ops = loaded.front().program->ops.size();
    benchmark::DoNotOptimize(ops);
  }
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["yaml_bytes"] = static_cast<double>(text.size());
  state.counters["steps_per_second"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LoadAndValidate)
    ->Arg(10'006)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(9)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_LoadAndValidate)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace conformance::scenario
