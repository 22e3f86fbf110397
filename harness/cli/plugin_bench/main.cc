// plugin_bench PLUGIN.so [--reference REF.so | --no-reference] [--benchmark_* flags]
//
// Google Benchmark figures for a plugin's allocation, copy bandwidth, stream and event
// latency, side by side with a reference plugin, in one process and one run (ratios from
// one run survive a noisy machine; absolute figures do not). See bench_options.cc for usage.
#include <iostream>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "allocation_benchmarks.h"
#include "bench_options.h"
#include "bench_target.h"
#include "bundled_reference.h"
#include "case_registry.h"
#include "comparison_table.h"
#include "display_reporter.h"
#include "latency_benchmarks.h"
#include "memcpy_benchmarks.h"
#include "result_collector.h"
#include "stream_benchmarks.h"
#include "validate/core_libraries.h"
#include "wrapper_overhead_benchmarks.h"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitLoad = 3;

}  // namespace

int main(int argc, char** argv) {
  using namespace conformance::bench;
  if (WantsHelp(argc, argv)) {
    PrintUsage(std::cout);
    return 0;
  }
  DisplayChoice display = ChooseDisplayReporter(argc, argv);
  if (!display.error.empty()) {
    std::cerr << "plugin_bench: " << display.error << "\n";
    return kExitUsage;
  }
  benchmark::Initialize(&argc, argv);
  const ParsedBenchCommandLine parsed = ParseBenchCommandLine(argc, argv, std::cout, std::cerr);
  if (!parsed.options) return parsed.exit_code;
  const BenchOptions& options = *parsed.options;

  // Plugins that link _pywrap_tensorflow_internal.so find it by soname only once it is loaded.
  if (const std::string why = conformance::validate::PreloadCoreLibraries(); !why.empty()) {
    std::cerr << "plugin_bench: warning: " << why << "\n";
  }

  std::vector<std::unique_ptr<BenchTarget>> owned;
  auto open = [&](const char* role, const std::filesystem::path& path) {
    auto target = BenchTarget::Open(role, path);
    if (!target) {
      std::cerr << "plugin_bench: cannot open " << role << " " << path << ": "
                << target.error().Describe() << "\n";
      return false;
    }
    owned.push_back(std::move(target).value());
    return true;
  };
  if (!open("candidate", options.candidate)) return kExitLoad;
  const std::filesystem::path reference =
      options.reference.empty() ? BundledReferencePlugin() : std::filesystem::path(options.reference);
  if (options.with_reference && !open("reference", reference)) return kExitLoad;

  std::vector<BenchTarget*> targets;
  for (const auto& target : owned) targets.push_back(target.get());
  CaseRegistry registry;
  RegisterMemcpyBenchmarks(registry, targets);
  RegisterAllocationBenchmarks(registry, targets);
  RegisterLatencyBenchmarks(registry, targets);
  RegisterStreamBenchmarks(registry, targets);
  RegisterWrapperOverheadBenchmarks(registry, targets);

  ResultCollector collector(std::move(display.reporter));
  if (benchmark::RunSpecifiedBenchmarks(&collector) == 0) {
    std::cerr << "plugin_bench: no benchmark matched --benchmark_filter\n";
    benchmark::Shutdown();
    return kExitUsage;
  }
  // After JSON or CSV on stdout, the table goes to stderr so stdout stays parseable.
  PrintComparisonTable(display.console ? std::cout : std::cerr, registry, collector,
                       {options.candidate, options.with_reference ? reference.string() : ""});
  benchmark::Shutdown();
  return 0;
}
