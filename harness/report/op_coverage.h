#pragma once
// The op coverage table of the kernel tier: for every op its case checks cover, one cell per
// dtype saying whether the plugin registered a kernel for it and whether it computed right,
// plus the op's property checks (leaks, stream ordering, ...). Derived from the results'
// ids and outcomes only ("kernel.<Op>.<dtype>.<case>", "kernel.<Op>.<property>"), so every
// reporter shows the same table and a report read back from JSON gives it again.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/check_result.h"
#include "model/outcome.h"
#include "run/run_report.h"

namespace conformance {

inline constexpr std::string_view kKernelCheckPrefix = "kernel.";

// The state of one op × dtype cell, from all its case checks. Most severe first: one failing
// case fails the cell; a cell is not_registered only when every case was not_supported because
// no kernel is registered for it (so a dtype registered for some attrs and passing there counts
// as passed); not_run when a case was not_supported for another reason (kernels cannot run under
// an older core, a kernel registered only under a label TensorFlow would not pick). generated:
// passed on cases --tensorflow generated from the op's definition ("kernel.<Op>.<dtype>.generated",
// a cell without a scenario), judged against TensorFlow's own CPU kernel.
enum class CellState { kFailed, kWaived, kSkipped, kPassed, kGenerated, kNotRun, kNotRegistered };
inline constexpr CellState kAllCellStates[] = {
    CellState::kPassed,  CellState::kGenerated, CellState::kFailed,       CellState::kWaived,
    CellState::kSkipped, CellState::kNotRun,    CellState::kNotRegistered};

// Whether a not_supported kernel case says no kernel is registered (the kernel tier's reasons:
// no TF_InitKernel, no kernel of the op, none for the dtype), as opposed to one that could not
// run here.
bool SaysNotRegistered(std::string_view not_supported_message);

std::string_view ToString(CellState state);  // "passed", "not_registered", ...
std::string_view Label(CellState state);     // "passed", "not registered", ... (for people)

struct CoverageCell {
  std::string dtype;  // as in the check ids: "float", "half", "int32", ...
  CellState state = CellState::kPassed;
  std::vector<std::string> checks;  // the case checks it summarises, in suite order
};

struct OpCoverage {
  std::string op;
  std::vector<CoverageCell> cells;  // dtypes in the order the results first name them
  // Property name ("leaks") -> outcome, in suite order.
  std::vector<std::pair<std::string, Outcome>> properties;

  const CoverageCell* Cell(std::string_view dtype) const;
  // A kernel known to be registered: some cell's cases ran (passed, generated, failed or
  // waived). Cells
  // that were skipped or not run say nothing either way.
  bool Registered() const;
  // Whether any cell tells registration: false when every cell was skipped or not run (a
  // plugin TensorFlow refuses, a core whose kernels cannot run).
  bool Known() const;
};

// One row per model × dtype of the models tier ("model.<name>.<dtype>"): the model check's
// state and which of the model's ops the plugin has a kernel for, as the check's `ops` detail
// (or, for a model not run, its not_supported reason) lists them.
struct ModelOp {
  std::string op;
  bool registered = false;
};
struct ModelCoverage {
  std::string model, dtype;
  std::string check;  // "model.<name>.<dtype>"
  // kNotRegistered: not_supported because the plugin lacks one of the model's ops.
  CellState state = CellState::kPassed;
  std::vector<ModelOp> ops;  // in the model's node order; empty when the result does not say
};

struct CoverageTable {
  std::vector<OpCoverage> ops;        // in the order the results first name them
  std::vector<std::string> dtypes;    // every dtype of any cell, in order of first appearance
  std::vector<ModelCoverage> models;  // in suite order

  bool empty() const { return ops.empty() && models.empty(); }
  // Number of cells in each state (zeros included).
  std::map<CellState, int> CellCounts() const;
};

// Which of the cells a plugin registers some check judged: a kernel that neither a scenario nor
// a generated case (judged from the recorded TensorFlow oracle, or with --tensorflow) covers is
// run by nothing, and must not pass unmentioned.
inline constexpr const char* kNoScenarioReason =
    "no check ran it: no built-in scenario covers it, and no case is generated for it "
    "(TensorFlow's "
    "registry lacks the op, or the suite has no values for the dtype); add a vendor scenario";
struct UnjudgedCell {
  std::string op, dtype;
  std::string reason;  // why no check judged it
};
struct RegisteredCoverage {
  int cells = 0;   // registered (op, dtype) cells
  int judged = 0;  // of them, cells whose checks passed, failed, were waived or generated
  std::vector<UnjudgedCell> unjudged;  // the others, in registration order
};

// `registered` judged by `table` (the results' coverage): a cell is judged when its table cell
// is passed, generated, failed or waived (a kernel of every dtype counts as each dtype its op's
// row has, judged or not on its own);
// otherwise the reason says why not: its checks' own (skipped, not run), not selected (--filter,
// shards), or no scenario (`installed_tensorflow`: the run had --tensorflow, which generates
// cases where TensorFlow defines the op).
RegisteredCoverage JudgeRegisteredCells(const std::vector<RegisteredCell>& registered,
                                        const CoverageTable& table,
                                        const std::vector<CheckResult>& results,
                                        bool installed_tensorflow);

// The table of every "kernel." and "model.<name>.<dtype>" result; empty when neither the kernel
// tier nor the models tier reported anything.
CoverageTable BuildCoverageTable(const std::vector<CheckResult>& results);

// The cell state one check result gives (before combining with the cell's other checks).
CellState CellStateOf(const CheckResult& result);

// The models tier's rows (model_coverage.cc).
std::vector<ModelCoverage> BuildModelCoverage(const std::vector<CheckResult>& results);

}  // namespace conformance
