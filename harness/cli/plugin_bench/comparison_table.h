#pragma once
// The table printed after Google Benchmark's output: one row per benchmark key with the
// candidate's and the reference's figure and their ratio, and for copies each plugin's
// bandwidth as a ratio to plain host memcpy of the same size from the same run.
#include <ostream>
#include <string>
#include <vector>

#include "case_registry.h"
#include "result_collector.h"

namespace conformance::bench {

struct TableLabels {
  std::string candidate_path;
  std::string reference_path;  // empty: no reference run
};

void PrintComparisonTable(std::ostream& out, const std::vector<CaseInfo>& cases,
                          const FigureSource& results, const TableLabels& labels);

}  // namespace conformance::bench
