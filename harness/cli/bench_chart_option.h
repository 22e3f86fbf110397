#pragma once
// --bench FILE: the plugin_bench JSON whose copy bandwidth the HTML report draws. Read and
// checked before the run starts, so a wrong file costs a second, not a whole run.
#include <string>

namespace conformance {

// The chart as an <svg> element. Throws UsageError naming the file and what is wrong with it.
std::string LoadBandwidthChart(const std::string& path);

}  // namespace conformance
