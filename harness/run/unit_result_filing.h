#pragma once
// Files a finished unit's results under the check ids the unit declared, so every result is
// one --list knows, filters and waivers see, and totals never exceed the check count:
//  - a failure filed under an id the unit did not declare (a crash with no check in flight is
//    filed under the unit's name, say `load.library`) replaces the first declared check left
//    `skipped` (the one the unit was about to run), or else the last declared check that did
//    not already fail; the original id stays in details["filed_as"];
//  - a passing or otherwise harmless result under an undeclared id is dropped, and so is a
//    second result for the same id: neither can be a check's verdict.
// Each result's tier is set to the unit's.
#include <string>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance {

// Returns one result per declared check at most, in the order they arrived.
std::vector<CheckResult> FileUnitResults(const TestUnit& unit, std::vector<CheckResult> results,
                                         std::vector<std::string>& dropped_ids);

}  // namespace conformance
