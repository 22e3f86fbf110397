#include "bandwidth_plot.h"

#include "report/report_file.h"
#include "report/svg_chart.h"

namespace conformance::bench {

std::vector<BandwidthSample> BandwidthSamples(const std::vector<CaseInfo>& cases,
                                              const FigureSource& figures) {
  std::vector<BandwidthSample> samples;
  for (const CaseInfo& info : cases) {
    if (info.metric != Metric::kBandwidth) continue;
    const Figure figure = figures.Get(BenchmarkName(info), info.metric);
    if (!figure.value || *figure.value <= 0) continue;
    if (auto sample = BandwidthSampleFromName(BenchmarkName(info), *figure.value)) {
      samples.push_back(*sample);
    }
  }
  return samples;
}

bool WriteBandwidthPlot(const std::string& path, const std::vector<BandwidthSample>& samples,
                        std::ostream& out, std::ostream& err) {
  if (samples.empty()) {
    err << "plugin_bench: --plot: no copy bandwidth figure to draw (the memcpy benchmarks were "
           "filtered out or did not finish)\n";
    return false;
  }
  try {
    WriteReportFile(path, RenderBandwidthSvgFile(BandwidthPanels(samples)), out);
    return true;
  } catch (const FileWriteError& error) {
    err << "plugin_bench: --plot: " << error.what() << "\n";
    return false;
  }
}

}  // namespace conformance::bench
