#pragma once
// A Google Benchmark reporter that passes everything on to the normal display reporter
// (console, JSON or CSV, as the --benchmark_format flag asks) and keeps the runs, so the
// comparison table can be printed from the very numbers Google Benchmark printed.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "case_registry.h"

namespace conformance::bench {

// One benchmark's figure for the table: a value in base units (bytes/s or seconds), or the
// error the benchmark stopped with, or neither (filtered out).
struct Figure {
  std::optional<double> value;
  std::string error;
  std::string cell;  // the table's cell when there is no value: "crash", "timeout", "not run"
};

// Where the comparison table takes its figures from: a collector in this process, or the
// figures family children sent back (family_results.h).
class FigureSource {
 public:
  virtual ~FigureSource() = default;
  virtual Figure Get(const std::string& benchmark_name, Metric metric) const = 0;
};

class ResultCollector : public benchmark::BenchmarkReporter, public FigureSource {
 public:
  explicit ResultCollector(std::unique_ptr<benchmark::BenchmarkReporter> display);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // The median over repetitions when there were several (Google Benchmark's "median"
  // aggregate), otherwise the single run's figure.
  Figure Get(const std::string& benchmark_name, Metric metric) const override;

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> display_;
  std::map<std::string, std::vector<Run>> runs_;  // by registered name
};

}  // namespace conformance::bench
