#pragma once
// Checks a parsed scenario as a whole and turns it into a Program: names defined before use
// and not used after destroy, no duplicates, sizes and offsets inside their allocations,
// buffer kinds that fit each step, devices covered by `requires:`, streams synchronized
// before they are destroyed, and no unordered accesses to the same bytes (happens_before.h).
// Everything is found before anything runs; every problem names file, line, column and key.
#include <optional>

#include "scenario/program.h"
#include "scenario/scenario.h"
#include "scenario/scenario_error.h"

namespace conformance::scenario {

// Empty (after adding to `errors`) when the scenario has problems.
std::optional<Program> ValidateScenario(const ScenarioFile& file, const Scenario& scenario,
                                        ErrorList& errors);

}  // namespace conformance::scenario
