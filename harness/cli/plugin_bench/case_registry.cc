#include "case_registry.h"

#include <exception>
#include <utility>

#include "isolate/in_flight.h"

namespace conformance::bench {

std::string BenchmarkName(const CaseInfo& info) { return info.key + "/" + info.role; }

benchmark::internal::Benchmark* CaseRegistry::Register(
    CaseInfo info, std::function<void(benchmark::State&)> body) {
  const std::string name = BenchmarkName(info);
  cases_.push_back(std::move(info));
  return benchmark::RegisterBenchmark(
             name.c_str(),
             [name, body = std::move(body)](benchmark::State& state) {
               // Marks the benchmark in flight: a crash or hang inside its timed loop (raw calls,
               // unmarked) is reported as "in benchmark <name>" (family_results.cc reads it).
               in_flight::PluginCall marker("benchmark " + name);
               // Google Benchmark does not catch exceptions; a 256 MiB buffer that cannot be
               // allocated (std::bad_alloc) should fail that benchmark, not end the run.
               try {
                 body(state);
               } catch (const std::exception& e) {
                 state.SkipWithError((std::string("exception: ") + e.what()).c_str());
               }
             })
      ->UseRealTime();
}

}  // namespace conformance::bench
