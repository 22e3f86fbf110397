#pragma once
// What real TensorFlow would make of the plugin, derived from the results: TensorFlow stops at
// the first check it enforces that fails (every failure carrying a TF_Code is one), and dies
// with the plugin on a crash or hang. Also picks up the header generation the plugin was
// built against (load.se.header_generation's finding).
#include "run/run_report.h"

namespace conformance {

void FillTensorFlowVerdict(RunReport& report);

}  // namespace conformance
