#pragma once
// --bench FILE: the plugin_bench JSON whose copy bandwidth the HTML report draws. Read and
// checked before the run starts, so a wrong file costs a second, not a whole run.
#include <ostream>
#include <string>

namespace conformance {

// The chart as an <svg> element. Throws UsageError naming the file and what is wrong with it,
// including figures of another plugin than `plugin` (when given); a file that records no
// plugin is a warning on `err`.
std::string LoadBandwidthChart(const std::string& path, const std::string& plugin,
                               std::ostream& err);

}  // namespace conformance
