#pragma once
// The bandwidth-vs-size chart as one standalone SVG element: a panel per copy kind (log2 x axis
// of copy sizes, GB/s y axis), one shared legend. Self-contained (no fonts, no links), so it
// is embedded as is in the HTML report and written alone by `plugin_bench --plot FILE.svg`.
#include <string>
#include <vector>

#include "report/bandwidth_chart.h"

namespace conformance {

// An <svg> element with the xmlns attribute (valid as a file and inline in HTML).
std::string RenderBandwidthSvg(const std::vector<ChartPanel>& panels);

// The file form: an XML declaration, then the element.
std::string RenderBandwidthSvgFile(const std::vector<ChartPanel>& panels);

}  // namespace conformance
