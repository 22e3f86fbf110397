#pragma once
// The op coverage table in the console summary. Compact: a totals line, then one line per op
// with its dtypes grouped by state and the property checks that did not pass. Verbose: the
// full op × dtype grid with every property's outcome.
#include <ostream>

#include "report/op_coverage.h"

namespace conformance {

// Writes nothing for an empty table (the kernel tier did not run).
void WriteCoverageTable(std::ostream& out, const CoverageTable& table, bool verbose, bool colour);

}  // namespace conformance
