#pragma once
// YAML scenarios as test units: one unit per scenario (its own child process, so a crash in
// one scenario costs only that scenario), one check id each.
#include <vector>

#include "model/test_unit.h"

namespace conformance {

// The built-in scenarios plus those under settings.scenario_dirs. Every file is read and
// validated here, in the parent, before anything runs: a bad file throws
// scenario::ScenarioFilesError (a UsageError, exit code 2) listing every problem.
std::vector<TestUnit> ScenarioUnits(const RunSettings& settings);

}  // namespace conformance
