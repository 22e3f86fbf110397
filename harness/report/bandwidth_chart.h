#pragma once
// The figures of a bandwidth-vs-size chart: for each copy kind plugin_bench measures
// ("htod_async", "dtoh_sync", ...), the bandwidth of the candidate plugin, the reference plugin
// and plain host memcpy at each copy size. Built from a `plugin_bench --benchmark_format=json`
// document (for `plugin_conformance --html --bench FILE`) or from plugin_bench's own figures
// (for `plugin_bench --plot`), so both draw the same chart (svg_chart.h).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

// Who a series measures; the chart draws them in this order, each in its own colour.
enum class BandwidthSeries { kCandidate, kReference, kHostMemcpy };
inline constexpr BandwidthSeries kAllBandwidthSeries[] = {
    BandwidthSeries::kCandidate, BandwidthSeries::kReference, BandwidthSeries::kHostMemcpy};
std::string_view Label(BandwidthSeries series);  // "candidate", "reference plugin", ...

// One figure: `copy` is the benchmark's copy kind ("htod_async"); host memcpy figures have no
// copy kind of their own (empty) and are drawn in every panel.
struct BandwidthSample {
  std::string copy;
  BandwidthSeries series = BandwidthSeries::kCandidate;
  std::uint64_t bytes = 0;
  double bytes_per_second = 0;
};

struct ChartPoint {
  std::uint64_t bytes = 0;
  double gigabytes_per_second = 0;  // 1e9 bytes per second
};

struct ChartLine {
  BandwidthSeries series = BandwidthSeries::kCandidate;
  std::vector<ChartPoint> points;  // by increasing size
};

// One panel of the chart: one copy kind, up to one line per series.
struct ChartPanel {
  std::string copy;  // "htod_async"
  std::vector<ChartLine> lines;
};

class BenchFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The bandwidth figures of a Google Benchmark JSON document written by plugin_bench
// (`--benchmark_format=json`, or `--benchmark_out=FILE --benchmark_out_format=json`).
// Repetitions are reduced to their median; errored runs are left out. Throws
// BenchFileError naming what is wrong (not JSON, no "benchmarks" array, no copy bandwidth).
std::vector<BandwidthSample> BandwidthSamplesFromBenchJson(std::string_view text);

// The sample a benchmark name ("memcpy/htod_async/1MiB/candidate", "memcpy/host_memcpy/4KiB/host",
// with or without Google Benchmark's suffixes such as "/real_time") stands for; nullopt for a
// benchmark that is not a copy.
std::optional<BandwidthSample> BandwidthSampleFromName(std::string_view benchmark_name,
                                                       double bytes_per_second);

// "4KiB" -> 4096, "1MiB", "256B"; 0 when it is not a size.
std::uint64_t ParseSizeLabel(std::string_view label);

// One panel per copy kind, in the order the samples first name them; host memcpy in each.
std::vector<ChartPanel> BandwidthPanels(const std::vector<BandwidthSample>& samples);

}  // namespace conformance
