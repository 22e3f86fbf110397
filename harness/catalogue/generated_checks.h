#pragma once
// Catalogue entries of the generated kernel cells plugin_conformance --tensorflow judges
// ("kernel.<Op>.<dtype>.generated", harness/kernels/generated_cases.h). Which cells exist
// depends on what the plugin registers, so they are added at run time (AddRunTimeChecks), one
// text for all, documented in specs/checks/README.md.
#include <optional>
#include <string>
#include <string_view>
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

// The entry of an id whose family is defined at run time, for a lookup before its judgement
// added it (plugin_conformance --list -v --tensorflow lists the installed TensorFlow's ids before
// TensorFlow ran anything): a "kernel.<Op>.<dtype>.generated" gets GeneratedCheckEntries's text
// (the recorded units add their own text when they are made, so an id still missing is the
// installed TensorFlow's), a "model.<name>.<dtype>.installed" InstalledModelCheckEntries's, and a
// "<case id>.in_tensorflow" whose case has an entry (a --scenarios case) the text kernels.yaml
// gives a built-in case's. nullopt for any other id.
std::optional<CheckEntry> RunTimeFamilyEntry(std::string_view id);

// FindCheck, else RunTimeFamilyEntry's entry, added to the run-time checks so the pointer stays
// valid (plugin_conformance's catalogue lookup).
const CheckEntry* FindCheckOrFamily(std::string_view id);

}  // namespace conformance
