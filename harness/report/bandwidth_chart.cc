#include "report/bandwidth_chart.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

namespace conformance {
namespace {

using nlohmann::json;

constexpr std::string_view kHostMemcpyKind = "host_memcpy";

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Which figure a benchmark name ("memcpy/htod_async/1MiB/candidate[/real_time...]") is;
// false for benchmarks that are not copies.
bool ParseCopyName(std::string_view name, BandwidthSample& sample) {
  const std::vector<std::string_view> parts = Split(name, '/');
  if (parts.size() < 4 || parts[0] != "memcpy") return false;
  sample.bytes = ParseSizeLabel(parts[2]);
  if (sample.bytes == 0) return false;
  if (parts[1] == kHostMemcpyKind) {
    if (parts[3] != "host") return false;
    sample.series = BandwidthSeries::kHostMemcpy;
    sample.copy.clear();
    return true;
  }
  if (parts[3] == "candidate") {
    sample.series = BandwidthSeries::kCandidate;
  } else if (parts[3] == "reference") {
    sample.series = BandwidthSeries::kReference;
  } else {
    return false;
  }
  sample.copy = std::string(parts[1]);
  return true;
}

std::string RunName(const json& run) {
  for (const char* key : {"run_name", "name"}) {
    if (run.contains(key) && run.at(key).is_string()) return run.at(key).get<std::string>();
  }
  return "";
}

}  // namespace

std::string_view Label(BandwidthSeries series) {
  switch (series) {
    case BandwidthSeries::kCandidate: return "candidate";
    case BandwidthSeries::kReference: return "reference plugin";
    case BandwidthSeries::kHostMemcpy: return "plain memcpy";
  }
  return "?";
}

std::optional<BandwidthSample> BandwidthSampleFromName(std::string_view benchmark_name,
                                                       double bytes_per_second) {
  BandwidthSample sample;
  if (!ParseCopyName(benchmark_name, sample)) return std::nullopt;
  sample.bytes_per_second = bytes_per_second;
  return sample;
}

std::uint64_t ParseSizeLabel(std::string_view label) {
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(label.data(), label.data() + label.size(), number);
  if (error != std::errc() || number == 0) return 0;
  const std::string_view unit(end, static_cast<std::size_t>(label.data() + label.size() - end));
  if (unit == "B") return number;
  if (unit == "KiB") return number << 10;
  if (unit == "MiB") return number << 20;
  if (unit == "GiB") return number << 30;
  return 0;
}

std::vector<BandwidthSample> BandwidthSamplesFromBenchJson(std::string_view text) {
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) throw BenchFileError("not a JSON document");
  if (!document.is_object() || !document.contains("benchmarks") ||
      !document.at("benchmarks").is_array()) {
    throw BenchFileError(
        "no \"benchmarks\" array (expected the output of plugin_bench "
        "--benchmark_format=json)");
  }
  // Figures per (copy, series, size), in first-seen order; iterations before aggregates.
  using Key = std::tuple<std::string, BandwidthSeries, std::uint64_t>;
  std::vector<Key> order;
  std::map<Key, std::vector<double>> iterations;
  std::map<Key, double> medians;  // "median" aggregates, for --benchmark_report_aggregates_only
  for (const json& run : document.at("benchmarks")) {
    if (!run.is_object()) continue;
    BandwidthSample sample;
    if (!ParseCopyName(RunName(run), sample)) continue;
    if (run.value("error_occurred", false)) continue;
    const auto rate = run.find("bytes_per_second");
    if (rate == run.end() || !rate->is_number() || rate->get<double>() <= 0) continue;
    const Key key{sample.copy, sample.series, sample.bytes};
    if (!iterations.contains(key) && !medians.contains(key)) order.push_back(key);
    const std::string run_type = run.value("run_type", "iteration");
    if (run_type == "iteration") {
      iterations[key].push_back(rate->get<double>());
    } else if (run.value("aggregate_name", "") == "median") {
      medians[key] = rate->get<double>();
    }
  }
  std::vector<BandwidthSample> samples;
  for (const Key& key : order) {
    double value = 0;
    if (const auto found = iterations.find(key); found != iterations.end()) {
      value = Median(found->second);
    } else if (const auto median = medians.find(key); median != medians.end()) {
      value = median->second;
    } else {
      continue;  // only mean/stddev aggregates
    }
    samples.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), value});
  }
  if (samples.empty()) {
    throw BenchFileError(
        "no copy bandwidth figures (no successful \"memcpy/...\" benchmark with "
        "bytes_per_second; was the memcpy family filtered out?)");
  }
  return samples;
}

std::vector<ChartPanel> BandwidthPanels(const std::vector<BandwidthSample>& samples) {
  std::vector<ChartPanel> panels;
  std::vector<ChartPoint> host;
  for (const BandwidthSample& sample : samples) {
    const ChartPoint point{sample.bytes, sample.bytes_per_second / 1e9};
    if (sample.series == BandwidthSeries::kHostMemcpy) {
      host.push_back(point);
      continue;
    }
    auto panel = std::find_if(panels.begin(), panels.end(),
                              [&](const ChartPanel& p) { return p.copy == sample.copy; });
    if (panel == panels.end()) panel = panels.insert(panels.end(), ChartPanel{sample.copy, {}});
    auto line = std::find_if(panel->lines.begin(), panel->lines.end(),
                             [&](const ChartLine& l) { return l.series == sample.series; });
    if (line == panel->lines.end()) {
      line = panel->lines.insert(panel->lines.end(), ChartLine{sample.series, {}});
    }
    line->points.push_back(point);
  }
  // Host memcpy alone (the memcpy family filtered to host_memcpy) is still a chart.
  if (panels.empty() && !host.empty()) panels.push_back(ChartPanel{"host memcpy", {}});
  const auto by_size = [](const ChartPoint& a, const ChartPoint& b) { return a.bytes < b.bytes; };
  for (ChartPanel& panel : panels) {
    if (!host.empty()) panel.lines.push_back(ChartLine{BandwidthSeries::kHostMemcpy, host});
    std::sort(panel.lines.begin(), panel.lines.end(),
              [](const ChartLine& a, const ChartLine& b) { return a.series < b.series; });
    for (ChartLine& line : panel.lines) std::sort(line.points.begin(), line.points.end(), by_size);
  }
  return panels;
}

}  // namespace conformance
