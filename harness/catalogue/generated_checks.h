#pragma once
// Catalogue entries of the generated kernel cells plugin_conformance --tensorflow judges
// ("kernel.<Op>.<dtype>.generated", harness/kernels/generated_cases.h). Which cells exist
// depends on what the plugin registers, so they are added at run time (AddRunTimeChecks), one
// text for all, documented in specs/checks/README.md.
#include <string>
#include <vector>

#include "catalogue/catalogue.h"
#include "model/check_result.h"

namespace conformance {

// One entry per result whose id is a generated cell's and not yet in the catalogue.
std::vector<CheckEntry> GeneratedCheckEntries(const std::vector<CheckResult>& results);

// One entry per id of a generated cell the kernel tier judges from the recorded TensorFlow
// oracle (harness/kernels/recorded_oracle.h), without TensorFlow installed.
std::vector<CheckEntry> RecordedCheckEntries(const std::vector<std::string>& ids);

// The same for the models --tensorflow runs as graphs in the installed TensorFlow
// ("model.<name>.<dtype>.installed", harness/models/installed_model_graphs.h).
std::vector<CheckEntry> InstalledModelCheckEntries(const std::vector<CheckResult>& results);

}  // namespace conformance
