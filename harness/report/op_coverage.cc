#include "report/op_coverage.h"

#include <algorithm>

namespace conformance {
namespace {

bool IsGenerated(std::string_view id) { return id.ends_with(".generated"); }

}  // namespace

CellState CellStateOf(const CheckResult& result) {
  switch (result.outcome) {
    case Outcome::kPass:
    case Outcome::kWarning:
      return IsGenerated(result.id) ? CellState::kGenerated : CellState::kPassed;
    case Outcome::kNotSupported:
      return SaysNotRegistered(result.message) ? CellState::kNotRegistered : CellState::kNotRun;
    case Outcome::kWaived: return CellState::kWaived;
    case Outcome::kSkipped: return CellState::kSkipped;
    case Outcome::kFail:
    case Outcome::kCrash:
    case Outcome::kTimeout:
    case Outcome::kUnexpectedPass:
    case Outcome::kFlaky: return CellState::kFailed;
  }
  return CellState::kFailed;
}

namespace {

// The states are declared most severe first, so combining two is taking the smaller.
CellState Combine(CellState a, CellState b) { return std::min(a, b); }

template <typename T, typename Key>
T& FindOrAppend(std::vector<T>& items, const Key& key, std::string T::*field) {
  auto it =
      std::find_if(items.begin(), items.end(), [&](const T& item) { return item.*field == key; });
  if (it != items.end()) return *it;
  T& added = items.emplace_back();
  added.*field = key;
  return added;
}

}  // namespace

bool SaysNotRegistered(std::string_view message) {
  // An empty reason is the oldest reports' (and the unit tests'): read as not registered.
  return message.empty() || message.find("registers no ") != std::string_view::npos ||
         message.find(" kernel registered for ") != std::string_view::npos ||
         message.find("does not export TF_InitKernel") != std::string_view::npos;
}

std::string_view ToString(CellState state) {
  switch (state) {
    case CellState::kFailed: return "failed";
    case CellState::kWaived: return "waived";
    case CellState::kSkipped: return "skipped";
    case CellState::kPassed: return "passed";
    case CellState::kGenerated: return "generated";
    case CellState::kNotRun: return "not_run";
    case CellState::kNotRegistered: return "not_registered";
  }
  return "failed";
}

std::string_view Label(CellState state) {
  if (state == CellState::kNotRegistered) return "not registered";
  if (state == CellState::kNotRun) return "not run";
  return ToString(state);
}

const CoverageCell* OpCoverage::Cell(std::string_view dtype) const {
  auto it =
      std::find_if(cells.begin(), cells.end(), [&](const auto& c) { return c.dtype == dtype; });
  return it == cells.end() ? nullptr : &*it;
}

bool OpCoverage::Registered() const {
  return std::any_of(cells.begin(), cells.end(), [](const auto& c) {
    return c.state == CellState::kPassed || c.state == CellState::kGenerated ||
           c.state == CellState::kFailed || c.state == CellState::kWaived;
  });
}

bool OpCoverage::Known() const {
  return std::any_of(cells.begin(), cells.end(), [](const auto& c) {
    return c.state != CellState::kSkipped && c.state != CellState::kNotRun;
  });
}

std::map<CellState, int> CoverageTable::CellCounts() const {
  std::map<CellState, int> counts;
  for (CellState state : kAllCellStates) counts[state] = 0;
  for (const OpCoverage& op : ops) {
    for (const CoverageCell& cell : op.cells) ++counts[cell.state];
  }
  return counts;
}

namespace {

bool Judged(CellState state) {
  return state == CellState::kPassed || state == CellState::kGenerated ||
         state == CellState::kFailed || state == CellState::kWaived;
}

// "skipped: not run: prerequisite ... did not pass": the cell's state and its first check's own
// reason.
std::string CellReason(const CoverageCell& cell, const std::vector<CheckResult>& results) {
  std::string reason(Label(cell.state));
  const auto first = std::find_if(results.begin(), results.end(), [&](const CheckResult& r) {
    return !cell.checks.empty() && r.id == cell.checks.front();
  });
  if (first != results.end() && !first->message.empty()) reason += ": " + first->message;
  return reason;
}

// Why a registered cell without a check in this run's results was not judged.
std::string NoCheckReason(const RegisteredCell& cell, bool installed_tensorflow) {
  if (cell.scenario) return "not selected in this run (--filter or sharding)";
  if (installed_tensorflow) {
    return "no scenario covers it, and the installed TensorFlow generated no cases for it (it "
           "does not define the op?); add a vendor scenario";
  }
  return kNoScenarioReason;
}

}  // namespace

RegisteredCoverage JudgeRegisteredCells(const std::vector<RegisteredCell>& registered,
                                        const CoverageTable& table,
                                        const std::vector<CheckResult>& results,
                                        bool installed_tensorflow) {
  RegisteredCoverage coverage;
  for (const RegisteredCell& cell : registered) {
    const auto op = std::find_if(table.ops.begin(), table.ops.end(),
                                 [&](const OpCoverage& row) { return row.op == cell.op; });
    const bool op_has_checks = op != table.ops.end() && !op->cells.empty();
    // A kernel of every dtype is as many cells as its op has dtypes with checks (the kernel
    // tier runs it at each dtype its op allows: unconstrained_cells.h), each judged or not on
    // its own, so the count agrees with the coverage table's row of the op.
    if (op_has_checks && cell.dtype == kEveryDtype) {
      const bool any_ran = std::any_of(op->cells.begin(), op->cells.end(), [](const auto& c) {
        return c.state != CellState::kNotRegistered;
      });
      for (const CoverageCell& dtype_cell : op->cells) {
        if (any_ran && dtype_cell.state == CellState::kNotRegistered) continue;
        ++coverage.cells;
        if (Judged(dtype_cell.state)) {
          ++coverage.judged;
        } else {
          coverage.unjudged.push_back({cell.op, dtype_cell.dtype, CellReason(dtype_cell, results)});
        }
      }
      continue;
    }
    ++coverage.cells;
    const CoverageCell* found = op_has_checks ? op->Cell(cell.dtype) : nullptr;
    if (found != nullptr && Judged(found->state)) {
      ++coverage.judged;
      continue;
    }
    coverage.unjudged.push_back({cell.op, cell.dtype,
                                 found != nullptr ? CellReason(*found, results)
                                                  : NoCheckReason(cell, installed_tensorflow)});
  }
  return coverage;
}

CoverageTable BuildCoverageTable(const std::vector<CheckResult>& results) {
  CoverageTable table;
  for (const CheckResult& result : results) {
    std::string_view id = result.id;
    if (!id.starts_with(kKernelCheckPrefix)) continue;
    id.remove_prefix(kKernelCheckPrefix.size());
    const std::size_t op_end = id.find('.');
    if (op_end == std::string_view::npos || op_end == 0 || op_end + 1 == id.size()) continue;
    OpCoverage& op = FindOrAppend(table.ops, std::string(id.substr(0, op_end)), &OpCoverage::op);
    const std::string_view rest = id.substr(op_end + 1);
    const std::size_t dtype_end = rest.find('.');
    if (dtype_end == std::string_view::npos) {  // "kernel.<Op>.<property>"
      op.properties.emplace_back(std::string(rest), result.outcome);
      continue;
    }
    const std::string dtype(rest.substr(0, dtype_end));  // "kernel.<Op>.<dtype>.<case>"
    const bool new_cell = op.Cell(dtype) == nullptr;
    CoverageCell& cell = FindOrAppend(op.cells, dtype, &CoverageCell::dtype);
    cell.state = new_cell ? CellStateOf(result) : Combine(cell.state, CellStateOf(result));
    cell.checks.push_back(result.id);
    if (std::find(table.dtypes.begin(), table.dtypes.end(), dtype) == table.dtypes.end()) {
      table.dtypes.push_back(dtype);
    }
  }
  table.models = BuildModelCoverage(results);
  return table;
}

}  // namespace conformance
