#pragma once
// The reporter Google Benchmark would have used for the display, chosen from the same
// flags (--benchmark_format console|json, --benchmark_color, --benchmark_counters_tabular). Needed
// because passing our own reporter (ResultCollector) replaces Google Benchmark's choice.
// Read from argv before benchmark::Initialize, which removes the flags.
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

namespace conformance::bench {

struct DisplayChoice {
  std::unique_ptr<benchmark::BenchmarkReporter> reporter;
  bool console = true;  // false for json: the comparison table then goes to stderr
  std::string error;    // a format plugin_bench cannot display; reporter is null then
};

DisplayChoice ChooseDisplayReporter(int argc, const char* const* argv);

}  // namespace conformance::bench
