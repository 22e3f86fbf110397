// Cost of running one trivial unit in its own child process, end to end: fork, crash-handler
// set-up, one result over the pipe, reaping. It bounds how many units a run can afford.
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "isolate/unit_runner.h"

namespace conformance {
namespace {

void BM_IsolatedTrivialUnit(benchmark::State& state) {
  TestUnit unit;
  unit.name = "bench.trivial";
  unit.tier = "load";
  unit.check_ids = {"bench.trivial.pass"};
  unit.run = [](UnitContext& context) {
    CheckResult result;
    result.id = "bench.trivial.pass";
    context.sink.Emit(result);
  };
  const std::vector<TestUnit> units{unit};
  const RunSettings settings;
  const IsolationOptions options;
  std::size_t results = 0;
  for (auto _ : state) {
    RunUnits(units, settings, options, 1,
             [&](std::size_t, const std::vector<CheckResult>& done) { results += done.size(); });
  }
  benchmark::DoNotOptimize(results);
  if (results != static_cast<std::size_t>(state.iterations())) {
    state.SkipWithError("a unit did not report exactly one result");
  }
}
BENCHMARK(BM_IsolatedTrivialUnit)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The floor: what fork(), _exit() and waitpid() alone cost in this process. The difference to
// the benchmark above is the isolation layer's own overhead.
void BM_BareForkExitWait(benchmark::State& state) {
  for (auto _ : state) {
    const pid_t pid = fork();
    if (pid == 0) _exit(0);
    int status = 0;
    waitpid(pid, &status, 0);
  }
}
BENCHMARK(BM_BareForkExitWait)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace conformance
