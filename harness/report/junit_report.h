#pragma once
// JUnit XML in the common Jenkins/Ant dialect (specs/report/junit.xsd), so any CI system
// shows checks as test cases:
//  - one <testsuite> per tier (the unit's tier, else the first id component), in the order
//    tiers first appear;
//  - one <testcase> per check: classname = id without its last component, name = the
//    last component (so CI tools group checks by their hierarchy);
//  - crash, timeout → <error>; fail, unexpected_pass, flaky → <failure> (type: the outcome);
//    not_supported, skipped, waived → <skipped message=...>; warning → a passing
//    test case with the warning in <system-out>;
//  - <properties> carry plugin, profile, seed and the rest of the run's settings, the
//    verdict and why, and one `root_cause` property per root cause (run/root_causes.h:
//    "call: problem [checks: a b]"); each failing test case's text starts with its root
//    cause ("root cause 1 of 2: ... (shared by 14 checks)"), so the test counts stay one
//    per check and the grouping is still visible in any CI viewer.
#include <string>

#include "report/check_lookup.h"
#include "run/run_report.h"

namespace conformance {

// `lookup` adds the catalogue's rule and fix hint to failure texts.
std::string RenderJUnitReport(const RunReport& report, const CheckLookup& lookup = {});

}  // namespace conformance
