// plugin_bench PLUGIN.so [--reference REF.so | --no-reference] [--family-timeout S]
//                        [--benchmark_* flags]
//
// Google Benchmark figures for a plugin's allocation, copy bandwidth, stream and event
// latency, side by side with a reference plugin, in one run (ratios from one run survive a
// noisy machine; absolute figures do not). Each benchmark family runs in its own child
// process (bench_families.h): a crash or hang costs that family only. See bench_options.cc.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bandwidth_plot.h"
#include "bench_families.h"
#include "bench_options.h"
#include "bundled_reference.h"
#include "comparison_table.h"
#include "display_reporter.h"
#include "family_results.h"
#include "isolate/unit_runner.h"
#include "progress_file.h"
#include "report/plugin_identity.h"
#include "report/report_file.h"
#include "validate/core_libraries.h"

namespace {

constexpr int kExitFamilyFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitLoad = 3;
constexpr int kExitPlotNotWritten = 4;

}  // namespace

int main(int argc, char** argv) {
  using namespace conformance::bench;
  if (WantsHelp(argc, argv)) {
    PrintUsage(std::cout);
    return 0;
  }
  if (auto unsupported = UnsupportedBenchmarkFlag(argc, argv)) {
    std::cerr << "plugin_bench: " << *unsupported << "\n";
    return kExitUsage;
  }
  DisplayChoice display = ChooseDisplayReporter(argc, argv);
  if (!display.error.empty()) {
    std::cerr << "plugin_bench: " << display.error << "\n";
    return kExitUsage;
  }
  // The children make their own display reporter from the same flags.
  const std::vector<std::string> original_args(argv, argv + argc);
  benchmark::Initialize(&argc, argv);
  const ParsedBenchCommandLine parsed = ParseBenchCommandLine(argc, argv, std::cout, std::cerr);
  if (!parsed.options) return parsed.exit_code;
  const BenchOptions& options = *parsed.options;
  // A --plot path that cannot work fails now, not after minutes of benchmarks.
  if (!options.plot_path.empty()) {
    if (auto problem = conformance::ProblemWithReportPath(options.plot_path)) {
      std::cerr << "plugin_bench: --plot: " << *problem << "\n";
      return kExitUsage;
    }
  }

  // Which plugin these figures are of, in the JSON's "context": plugin_conformance --bench
  // refuses to attach them to another plugin's report.
  if (auto identity = conformance::IdentifyPlugin(options.candidate)) {
    conformance::AddIdentityToContext(*identity,
                                      [](const std::string& key, const std::string& value) {
                                        benchmark::AddCustomContext(key, value);
                                      });
  }

  // Plugins that link _pywrap_tensorflow_internal.so find it by soname only once it is loaded.
  if (const std::string why = conformance::validate::PreloadCoreLibraries(); !why.empty()) {
    std::cerr << "plugin_bench: warning: " << why << "\n";
  }

  FamilyPlan plan;
  plan.candidate = options.candidate;
  if (options.with_reference) {
    plan.reference = options.reference.empty() ? BundledReferencePlugin()
                                               : std::filesystem::path(options.reference);
  }
  plan.make_display = [original_args] {
    std::vector<const char*> args;
    args.reserve(original_args.size());
    for (const std::string& arg : original_args) args.push_back(arg.c_str());
    return ChooseDisplayReporter(static_cast<int>(args.size()), args.data()).reporter;
  };

  conformance::RunSettings settings;
  settings.plugin_path = options.candidate;
  conformance::IsolationOptions isolation;
  isolation.timeout = std::chrono::seconds(options.family_timeout_seconds);

  // Open both plugins once, in a child, before any family: a plugin that cannot be opened (or
  // crashes while opening) is exit code 3, not a failure of every family.
  bool opened = false;
  conformance::RunUnits({OpenUnit(plan)}, settings, isolation, 1,
                        [&](std::size_t, const std::vector<conformance::CheckResult>& results) {
                          for (const auto& result : results) {
                            if (result.outcome == conformance::Outcome::kPass) {
                              opened = true;
                              continue;
                            }
                            std::cerr << "plugin_bench: " << result.message;
                            if (result.crash) std::cerr << " (" << result.crash->signal << ")";
                            std::cerr << "\n";
                          }
                        });
  if (!opened) return kExitLoad;

  // One family at a time: families running side by side would disturb each other's figures.
  std::vector<conformance::TestUnit> units;
  units.reserve(BenchFamilies().size());
  std::vector<ProgressFile> progress(BenchFamilies().size());
  for (std::size_t i = 0; i < BenchFamilies().size(); ++i) {
    units.push_back(FamilyUnit(BenchFamilies()[i], plan, progress[i].fd()));
  }
  FamilyResults results(!display.console);
  conformance::RunUnits(
      units, settings, isolation, 1,
      [&](std::size_t index, const std::vector<conformance::CheckResult>& unit_results) {
        results.Add(BenchFamilies()[index], unit_results, progress[index].Read());
      });

  results.PrintDisplay(std::cout, std::cerr);
  results.PrintFailures(std::cerr);
  if (results.matched() == 0 && results.failures().empty()) {
    std::cerr << "plugin_bench: no benchmark matched --benchmark_filter\n";
    benchmark::Shutdown();
    return kExitUsage;
  }
  // After JSON on stdout, the table goes to stderr so stdout stays parseable.
  PrintComparisonTable(display.console ? std::cout : std::cerr, results.cases(), results,
                       {options.candidate, options.with_reference ? plan.reference.string() : ""});
  benchmark::Shutdown();
  if (!options.plot_path.empty() &&
      !WriteBandwidthPlot(options.plot_path, BandwidthSamples(results.cases(), results), std::cout,
                          std::cerr)) {
    return kExitPlotNotWritten;
  }
  return results.failures().empty() ? 0 : kExitFamilyFailed;
}
