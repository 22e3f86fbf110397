#include "cli/bench_chart_option.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <optional>

#include "report/bandwidth_chart.h"
#include "report/plugin_identity.h"
#include "report/svg_chart.h"
#include "run/usage_error.h"

namespace conformance {

namespace {

// The chart must be of the plugin under test: a bench file records which plugin it measured.
void CheckSamePlugin(const std::string& where, const std::string& text, const std::string& plugin,
                     std::ostream& err) {
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  const std::optional<PluginIdentity> recorded = IdentityFromBenchJson(document);
  if (!recorded) {
    err << "plugin_conformance: warning: " << where
        << "records no plugin (an older plugin_bench); cannot check that it measured " << plugin
        << '\n';
    return;
  }
  const std::optional<PluginIdentity> tested = IdentifyPlugin(plugin);
  if (!tested) return;  // the run reports a plugin it cannot read
  if (const std::string mismatch = IdentityMismatch(*recorded, *tested); !mismatch.empty()) {
    throw UsageError(where + "is another plugin's benchmark: " + mismatch +
                     "; run plugin_bench on this plugin");
  }
}

}  // namespace

std::string LoadBandwidthChart(const std::string& path, const std::string& plugin,
                               std::ostream& err) {
  const std::string where = "--bench '" + path + "': ";
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw UsageError(where + "is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw UsageError(where + "cannot read it: " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (!file && !file.eof()) throw UsageError(where + "cannot read it: " + std::strerror(errno));
  std::string svg;
  try {
    svg = RenderBandwidthSvg(BandwidthPanels(BandwidthSamplesFromBenchJson(text.str())));
  } catch (const BenchFileError& error) {
    throw UsageError(where + error.what());
  }
  if (!plugin.empty()) CheckSamePlugin(where, text.str(), plugin, err);
  return svg;
}

}  // namespace conformance
