#pragma once
// YAML text → ScenarioFile. Checks the shape of the file: known keys (with did-you-mean),
// value types, required keys, name syntax. What needs the whole scenario (names defined,
// lifetimes, bounds, ordering) is the validator's job. Every problem is collected; parsing
// goes on after one so that a single run lists them all.
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/scenario_error.h"

namespace conformance::scenario {

struct ParsedFile {
  ScenarioFile file;
  // One flag per scenario: false when that scenario had a problem, so the validator does not
  // pile follow-up errors (undefined names, ...) on top of the real one.
  std::vector<bool> scenario_ok;
};

// `label` names the file in messages; `stem` is the file name without ".yaml" (check ids).
ParsedFile ParseScenarioText(std::string_view text, const std::string& label,
                             const std::string& stem, ErrorList& errors);

}  // namespace conformance::scenario
