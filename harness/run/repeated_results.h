#pragma once
// --repeat N: the N result lists of one unit become one. A check that ended the same way every
// time keeps its first run's result; one whose outcome varied becomes `flaky`, with the outcome
// of each run (details.outcomes: "pass,fail,pass") and the first run that did not pass kept as
// the message, so the report shows what the flake looks like when it bites.
#include <vector>

#include "model/check_result.h"

namespace conformance {

// `runs` holds each run's results, already filed under the unit's checks; a check missing from
// a run counts as "absent" there. Order: the first run's, then checks only later runs had.
std::vector<CheckResult> MergeRepeatedRuns(std::vector<std::vector<CheckResult>> runs);

}  // namespace conformance
