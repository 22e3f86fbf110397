#include "result_collector.h"

#include <algorithm>
#include <utility>

namespace conformance::bench {
namespace {

std::optional<double> CounterValue(const benchmark::BenchmarkReporter::Run& run, const char* name) {
  const auto it = run.counters.find(name);
  if (it == run.counters.end()) return std::nullopt;
  return it->second.value;
}

// The figure of one run, in base units: bytes per second or seconds.
std::optional<double> MetricValue(const benchmark::BenchmarkReporter::Run& run, Metric metric) {
  switch (metric) {
    case Metric::kBandwidth: return CounterValue(run, "bytes_per_second");
    case Metric::kMedianLatency: {
      const auto microseconds = CounterValue(run, "median_us");
      if (!microseconds) return std::nullopt;
      return *microseconds / 1e6;
    }
    case Metric::kTimePerIteration:
      return run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
  }
  return std::nullopt;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

ResultCollector::ResultCollector(std::unique_ptr<benchmark::BenchmarkReporter> display)
    : display_(std::move(display)) {}

bool ResultCollector::ReportContext(const Context& context) {
  return display_->ReportContext(context);
}

void ResultCollector::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) runs_[run.run_name.function_name].push_back(run);
  display_->ReportRuns(runs);
}

void ResultCollector::Finalize() { display_->Finalize(); }

Figure ResultCollector::Get(const std::string& benchmark_name, Metric metric) const {
  const auto found = runs_.find(benchmark_name);
  if (found == runs_.end()) return {};
  std::vector<double> repetitions;
  for (const Run& run : found->second) {
    if (run.error_occurred) return {std::nullopt, run.error_message, ""};
    if (run.run_type == Run::RT_Aggregate) {
      if (run.aggregate_name == "median") return {MetricValue(run, metric), "", ""};
      continue;
    }
    if (const auto value = MetricValue(run, metric)) repetitions.push_back(*value);
  }
  if (repetitions.empty()) return {};
  return {Median(std::move(repetitions)), "", ""};
}

}  // namespace conformance::bench
