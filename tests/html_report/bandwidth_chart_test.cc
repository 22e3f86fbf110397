// The bandwidth chart: reading plugin_bench's JSON (medians, aggregates, errors, bad files)
// and drawing three series on a log2 size axis.
#include "report/bandwidth_chart.h"

#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "report/svg_chart.h"

namespace conformance {
namespace {

using nlohmann::json;

json BenchRun(const std::string& name, double bytes_per_second,
              const std::string& type = "iteration") {
  return {{"name", name + "/real_time"},
          {"run_name", name + "/real_time"},
          {"run_type", type},
          {"bytes_per_second", bytes_per_second}};
}

// Candidate, reference and host memcpy at 4 KiB and 1 MiB, as plugin_bench names them.
std::string BenchJson() {
  json runs = json::array();
  runs.push_back(BenchRun("memcpy/host_memcpy/4KiB/host", 20e9));
  runs.push_back(BenchRun("memcpy/host_memcpy/1MiB/host", 10e9));
  for (const char* size : {"4KiB", "1MiB"}) {
    runs.push_back(BenchRun(std::string("memcpy/htod_async/") + size + "/candidate", 1e9));
    runs.push_back(BenchRun(std::string("memcpy/htod_async/") + size + "/reference", 2e9));
  }
  runs.push_back(BenchRun("allocate_deallocate/4KiB/candidate", 5));  // not a copy: ignored
  return json{{"context", {{"host_name", "x"}}}, {"benchmarks", runs}}.dump();
}

TEST(BandwidthChartTest, ReadsPluginBenchJson) {
  const std::vector<BandwidthSample> samples = BandwidthSamplesFromBenchJson(BenchJson());
  ASSERT_EQ(samples.size(), 6u);
  EXPECT_EQ(samples[0].series, BandwidthSeries::kHostMemcpy);
  EXPECT_EQ(samples[0].bytes, 4096u);
  EXPECT_EQ(samples[2].copy, "htod_async");
  EXPECT_EQ(samples[2].series, BandwidthSeries::kCandidate);
  EXPECT_EQ(samples[3].series, BandwidthSeries::kReference);
  EXPECT_DOUBLE_EQ(samples[3].bytes_per_second, 2e9);
}

TEST(BandwidthChartTest, RepetitionsGiveTheirMedianAndErrorsAreLeftOut) {
  json runs = json::array({BenchRun("memcpy/dtod_sync/64KiB/candidate", 3e9),
                           BenchRun("memcpy/dtod_sync/64KiB/candidate", 1e9),
                           BenchRun("memcpy/dtod_sync/64KiB/candidate", 2e9),
                           BenchRun("memcpy/dtod_sync/64KiB/candidate", 9e9, "aggregate"),
                           BenchRun("memcpy/dtod_sync/16MiB/reference", 4e9, "aggregate")});
  runs[3]["aggregate_name"] = "mean";
  runs[4]["aggregate_name"] = "median";  // aggregates only: the median is taken
  json errored = BenchRun("memcpy/dtod_sync/1MiB/candidate", 7e9);
  errored["error_occurred"] = true;
  runs.push_back(errored);
  const auto samples = BandwidthSamplesFromBenchJson(json{{"benchmarks", runs}}.dump());
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_DOUBLE_EQ(samples[0].bytes_per_second, 2e9);
  EXPECT_EQ(samples[1].bytes, 16u << 20);
  EXPECT_DOUBLE_EQ(samples[1].bytes_per_second, 4e9);
}

TEST(BandwidthChartTest, BadFilesSayWhatIsWrong) {
  EXPECT_THROW(
      {
        try {
          BandwidthSamplesFromBenchJson("Comparison table\n");
        } catch (const BenchFileError& error) {
          EXPECT_STREQ(error.what(), "not a JSON document");
          throw;
        }
      },
      BenchFileError);
  EXPECT_THROW(BandwidthSamplesFromBenchJson("{\"results\": []}"), BenchFileError);
  EXPECT_THROW(
      {
        try {
          BandwidthSamplesFromBenchJson(
              json{{"benchmarks", {BenchRun("stream/create_destroy/candidate", 1)}}}.dump());
        } catch (const BenchFileError& error) {
          EXPECT_NE(std::string(error.what()).find("no copy bandwidth"), std::string::npos);
          throw;
        }
      },
      BenchFileError);
}

TEST(BandwidthChartTest, SizeLabels) {
  EXPECT_EQ(ParseSizeLabel("256B"), 256u);
  EXPECT_EQ(ParseSizeLabel("4KiB"), 4096u);
  EXPECT_EQ(ParseSizeLabel("256MiB"), 256u << 20);
  EXPECT_EQ(ParseSizeLabel("4kb"), 0u);
  EXPECT_EQ(ParseSizeLabel("KiB"), 0u);
  EXPECT_EQ(ParseSizeLabel("0B"), 0u);
}

TEST(BandwidthChartTest, PanelsCarryHostMemcpyInEach) {
  std::vector<BandwidthSample> samples = BandwidthSamplesFromBenchJson(BenchJson());
  samples.push_back({"dtoh_async", BandwidthSeries::kCandidate, 4096, 5e8});
  const std::vector<ChartPanel> panels = BandwidthPanels(samples);
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0].copy, "htod_async");
  ASSERT_EQ(panels[0].lines.size(), 3u);
  EXPECT_EQ(panels[0].lines[0].series, BandwidthSeries::kCandidate);
  EXPECT_EQ(panels[0].lines[2].series, BandwidthSeries::kHostMemcpy);
  EXPECT_DOUBLE_EQ(panels[0].lines[1].points[1].gigabytes_per_second, 2.0);
  EXPECT_EQ(panels[1].lines.size(), 2u);  // dtoh: candidate and host memcpy
}

std::vector<double> Numbers(const std::string& text, const std::regex& pattern) {
  std::vector<double> numbers;
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    numbers.push_back(std::stod((*it)[1]));
  }
  return numbers;
}

TEST(SvgChartTest, ThreeSeriesWithPointsLegendAndAxes) {
  std::vector<BandwidthSample> samples = BandwidthSamplesFromBenchJson(BenchJson());
  samples.push_back({"htod_async", BandwidthSeries::kCandidate, 64 << 10, 1e9});
  const std::string svg = RenderBandwidthSvg(BandwidthPanels(samples));
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  for (const char* series : {"candidate", "reference plugin", "plain memcpy"}) {
    EXPECT_NE(svg.find("<g class=\"series\" data-series=\"" + std::string(series) + "\">"),
              std::string::npos)
        << series;
    EXPECT_NE(svg.find(">" + std::string(series) + "</text>"), std::string::npos)
        << "legend: " << series;
  }
  // 3 candidate points, 2 reference, 2 memcpy.
  std::size_t points = 0;
  for (std::size_t at = svg.find("class=\"point\""); at != std::string::npos;
       at = svg.find("class=\"point\"", at + 1)) {
    ++points;
  }
  EXPECT_EQ(points, 7u);
  EXPECT_NE(svg.find("candidate, 64KiB: 1.000 GB/s"), std::string::npos);
  EXPECT_NE(svg.find(">copy size (log2 scale)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">GB/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">4KiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1MiB</text>"), std::string::npos);
  // log2 axis: 4 KiB -> 64 KiB (x16) spans 4/8 of 4 KiB -> 1 MiB (x256).
  std::vector<double> cx = Numbers(svg.substr(svg.find("data-series=\"candidate\"")),
                                   std::regex("class=\"point\" cx=\"([0-9.]+)\""));
  ASSERT_GE(cx.size(), 3u);
  EXPECT_NEAR((cx[1] - cx[0]) / (cx[2] - cx[0]), 0.5, 0.01);
}

TEST(SvgChartTest, NamesFromTheFileAreEscapedAndTheFileFormIsXml) {
  const std::vector<ChartPanel> panels = {
      {"<script>x</script>", {{BandwidthSeries::kCandidate, {{4096, 1.0}}}}}};
  const std::string svg = RenderBandwidthSvgFile(panels);
  EXPECT_TRUE(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"));
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;x&lt;/script&gt;"), std::string::npos);
}

}  // namespace
}  // namespace conformance
