#include "cli/bench_chart_option.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/bandwidth_chart.h"
#include "report/svg_chart.h"
#include "run/usage_error.h"

namespace conformance {

std::string LoadBandwidthChart(const std::string& path) {
  const std::string where = "--bench '" + path + "': ";
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw UsageError(where + "is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError(where + "cannot read it: " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (!file && !file.eof()) throw UsageError(where + "cannot read it: " + std::strerror(errno));
  try {
    return RenderBandwidthSvg(BandwidthPanels(BandwidthSamplesFromBenchJson(text.str())));
  } catch (const BenchFileError& error) {
    throw UsageError(where + error.what());
  }
}

}  // namespace conformance
