#pragma once
// The human-readable console output: a header before the run (with the seed, so even a
// run that is killed can be reproduced), progress lines in verbose mode, and a summary
// after it — one line per result that is not a pass (all results with -v), crash details,
// the counts and the verdict. Without -v, three or more consecutive skipped (or
// not_supported) results with the same message share one line.
#include <cstddef>
#include <ostream>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"
#include "report/check_lookup.h"
#include "run/run_report.h"

namespace conformance {

struct ConsoleStyle {
  bool verbose = false;  // list passes and every result's details too
  bool colour = false;   // ANSI colour; see terminal_colour.h for when to turn it on
};

void WriteConsoleHeader(std::ostream& out, const RunReport& header, const ConsoleStyle& style);

// "[ 3/40] load.se: 12 reported (0 not passing)" after each unit, verbose mode only.
void WriteUnitProgress(std::ostream& out, const TestUnit& unit,
                       const std::vector<CheckResult>& reported, std::size_t done,
                       std::size_t total, const ConsoleStyle& style);

void WriteConsoleSummary(std::ostream& out, const RunReport& report, const ConsoleStyle& style,
                         const CheckLookup& lookup = {});

// "62 checks: 60 pass, 1 fail, 1 warning": only outcomes that occurred, in kAllOutcomes
// order.
std::string CountsLine(const RunReport& report);

}  // namespace conformance
