#pragma once
// The op coverage table in the console summary. Compact: a totals line, then one line per op
// with its dtypes grouped by state and the property checks that did not pass. Verbose: the
// full op × dtype grid with every property's outcome.
#include <ostream>

#include "report/op_coverage.h"

namespace conformance {

// Writes nothing for an empty table (the kernel tier did not run) without `registered`. With it
// (the plugin's registered cells were listed), one more line: "judged: X of Y registered (op,
// dtype) cells" and the first few ops no check judged; verbose lists each with its reason.
void WriteCoverageTable(std::ostream& out, const CoverageTable& table, bool verbose, bool colour,
                        const RegisteredCoverage* registered = nullptr);

}  // namespace conformance
