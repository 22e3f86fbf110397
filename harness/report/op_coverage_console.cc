#include "report/op_coverage_console.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "report/terminal_colour.h"

namespace conformance {
namespace {

constexpr std::size_t kOpWidth = 24;

std::string_view StateColour(CellState state) {
  switch (state) {
    case CellState::kPassed:
    case CellState::kGenerated: return ansi::kGreen;
    case CellState::kFailed: return ansi::kRed;
    case CellState::kWaived: return ansi::kCyan;
    case CellState::kSkipped: return ansi::kYellow;
    case CellState::kNotRun:
    case CellState::kNotRegistered: return ansi::kDim;
  }
  return {};
}

std::string Paint(std::string text, std::string_view colour, bool colour_on) {
  if (!colour_on || colour.empty()) return text;
  return std::string(colour) + text + std::string(ansi::kReset);
}

std::string Padded(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

// "31 ops, 120 cells: 110 passed, 4 failed, 6 not registered" (states that occur only).
std::string TotalsLine(const CoverageTable& table) {
  const auto registered = std::count_if(table.ops.begin(), table.ops.end(),
                                        [](const OpCoverage& op) { return op.Registered(); });
  const auto unknown = std::count_if(table.ops.begin(), table.ops.end(),
                                     [](const OpCoverage& op) { return !op.Known(); });
  // Ops none of whose cases ran say nothing about registration: counted apart, never as
  // registered (a refused plugin) nor as unregistered (an older core).
  std::string line = std::to_string(table.ops.size()) + (table.ops.size() == 1 ? " op" : " ops") +
                     " (" + std::to_string(registered) + " registered" +
                     (unknown > 0 ? ", " + std::to_string(unknown) + " not run" : "") + ")";
  const std::map<CellState, int> counts = table.CellCounts();
  int cells = 0;
  std::string states;
  for (const auto& [state, count] : counts) cells += count;
  for (CellState state : kAllCellStates) {
    const int count = counts.at(state);
    if (count == 0) continue;
    states +=
        (states.empty() ? ": " : ", ") + std::to_string(count) + " " + std::string(Label(state));
  }
  return line + ", " + std::to_string(cells) + " op×dtype cells" + states;
}

// "leaks fail, late_inputs skipped"; only properties that did not pass unless `all`.
std::string PropertiesText(const OpCoverage& op, bool all) {
  std::string text;
  for (const auto& [name, outcome] : op.properties) {
    if (!all && outcome == Outcome::kPass) continue;
    text += (text.empty() ? "" : ", ") + name + " " + std::string(ToString(outcome));
  }
  return text;
}

// The op column: kOpWidth, or wider so the longest name (ResourceApplyGradientDescent) still
// leaves a space before the next column.
std::size_t OpColumnWidth(const CoverageTable& table) {
  std::size_t width = kOpWidth;
  for (const OpCoverage& op : table.ops) width = std::max(width, op.op.size() + 1);
  return width;
}

void WriteCompactLine(std::ostream& out, const OpCoverage& op, std::size_t op_width, bool colour) {
  out << "  " << Padded(op.op, op_width);
  std::string groups;
  for (CellState state : kAllCellStates) {
    std::string dtypes;
    for (const CoverageCell& cell : op.cells) {
      if (cell.state == state) dtypes += (dtypes.empty() ? "" : " ") + cell.dtype;
    }
    if (dtypes.empty()) continue;
    groups += (groups.empty() ? "" : "; ") +
              Paint(std::string(Label(state)), StateColour(state), colour) + " " + dtypes;
  }
  out << groups;
  const std::string properties = PropertiesText(op, false);
  if (!properties.empty()) out << "; properties: " << properties;
  out << '\n';
}

std::string CellText(const CoverageCell* cell) {
  if (cell == nullptr) return "";
  switch (cell->state) {
    case CellState::kPassed: return "pass";
    case CellState::kGenerated: return "gen";
    case CellState::kFailed: return "FAIL";
    case CellState::kWaived: return "waived";
    case CellState::kSkipped: return "skip";
    case CellState::kNotRun: return "n/r";
    case CellState::kNotRegistered: return "-";
  }
  return "";
}

void WriteGrid(std::ostream& out, const CoverageTable& table, bool colour) {
  std::vector<std::size_t> widths;
  for (const std::string& dtype : table.dtypes)
    widths.push_back(std::max<std::size_t>(dtype.size(), 6) + 1);
  const std::size_t op_width = OpColumnWidth(table);
  out << "  " << Padded("op", op_width);
  for (std::size_t i = 0; i < table.dtypes.size(); ++i) out << Padded(table.dtypes[i], widths[i]);
  out << "properties\n";
  for (const OpCoverage& op : table.ops) {
    out << "  " << Padded(op.op, op_width);
    for (std::size_t i = 0; i < table.dtypes.size(); ++i) {
      const CoverageCell* cell = op.Cell(table.dtypes[i]);
      const std::string text = Padded(CellText(cell), widths[i]);
      out << (cell ? Paint(text, StateColour(cell->state), colour) : text);
    }
    out << PropertiesText(op, true) << '\n';
  }
  out << "  (-: no kernel registered for the dtype; n/r: not run here; blank: no scenario runs the "
         "op with it)\n";
}

// "6 models × dtypes: 5 passed, 1 not run", then one line per model: its state and which of
// its ops the plugin has ("MatMul BiasAdd; missing: Conv2D").
void WriteModelRows(std::ostream& out, const CoverageTable& table, bool colour) {
  std::map<CellState, int> counts;
  for (const ModelCoverage& row : table.models) ++counts[row.state];
  std::string states;
  for (CellState state : kAllCellStates) {
    if (counts[state] == 0) continue;
    states += (states.empty() ? ": " : ", ") + std::to_string(counts[state]) + " " +
              std::string(Label(state));
  }
  out << Paint("Model op coverage: ", ansi::kBold, colour) << table.models.size()
      << (table.models.size() == 1 ? " model" : " models") << states << '\n';
  std::size_t width = kOpWidth;
  for (const ModelCoverage& row : table.models)
    width = std::max(width, row.model.size() + row.dtype.size() + 2);
  for (const ModelCoverage& row : table.models) {
    out << "  " << Padded(row.model + "." + row.dtype, width)
        << Paint(std::string(Label(row.state)), StateColour(row.state), colour);
    std::string has, missing;
    for (const ModelOp& op : row.ops) (op.registered ? has : missing) += " " + op.op;
    if (!row.ops.empty()) {
      const auto registered = std::count_if(row.ops.begin(), row.ops.end(),
                                            [](const ModelOp& op) { return op.registered; });
      out << "; " << registered << " of " << row.ops.size() << " ops registered:" << has;
    }
    if (!missing.empty()) out << "; " << Paint("missing:" + missing, ansi::kRed, colour);
    out << '\n';
  }
}

// Ops named on the compact line before "and N more".
constexpr std::size_t kUnjudgedOpsShown = 5;

// "Registered kernels: judged 40 of 42 (op, dtype) cells; not judged: Floor (float), Cumsum
// (float, int32) (no built-in scenario for this op; ...)". The reason is shown when every cell
// shares it; -v lists each cell with its own.
void WriteRegisteredLine(std::ostream& out, const RegisteredCoverage& registered, bool verbose,
                         bool colour) {
  out << Paint("Registered kernels: ", ansi::kBold, colour) << "judged " << registered.judged
      << " of " << registered.cells << " (op, dtype) cells";
  if (registered.unjudged.empty()) {
    out << '\n';
    return;
  }
  std::vector<std::pair<std::string, std::string>> ops;  // op, its unjudged dtypes
  bool one_reason = true;
  for (const UnjudgedCell& cell : registered.unjudged) {
    one_reason = one_reason && cell.reason == registered.unjudged.front().reason;
    auto it =
        std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.first == cell.op; });
    if (it == ops.end()) {
      ops.emplace_back(cell.op, cell.dtype);
    } else {
      it->second += ", " + cell.dtype;
    }
  }
  out << "; "
      << Paint(std::to_string(registered.unjudged.size()) + " not judged", ansi::kYellow, colour)
      << ":";
  for (std::size_t i = 0; i < ops.size() && i < kUnjudgedOpsShown; ++i)
    out << (i == 0 ? " " : ", ") << ops[i].first << " (" << ops[i].second << ")";
  if (ops.size() > kUnjudgedOpsShown)
    out << " and " << ops.size() - kUnjudgedOpsShown << " more ops";
  if (one_reason) out << " (" << registered.unjudged.front().reason << ")";
  out << '\n';
  if (!verbose) {
    if (ops.size() > kUnjudgedOpsShown || !one_reason) {
      out << "  (-v, --json and --html list every one with its reason)\n";
    }
    return;
  }
  for (const UnjudgedCell& cell : registered.unjudged)
    out << "  " << cell.op << ' ' << cell.dtype << ": " << cell.reason << '\n';
}

bool Unrun(CellState state) { return state == CellState::kSkipped || state == CellState::kNotRun; }

// No op's case ran (the plugin did not load, or the kernel tier was skipped): the per-op lines
// would all say so; one line does.
bool NoOpRan(const CoverageTable& table) {
  return std::all_of(table.ops.begin(), table.ops.end(), [](const OpCoverage& op) {
    return std::all_of(op.cells.begin(), op.cells.end(),
                       [](const CoverageCell& cell) { return Unrun(cell.state); });
  });
}

bool NoModelRan(const CoverageTable& table) {
  return std::all_of(table.models.begin(), table.models.end(), [](const ModelCoverage& row) {
    return Unrun(row.state) || row.state == CellState::kNotRegistered;
  });
}

// An op none of whose cells has a kernel of the plugin, or ran: nothing about it to read but its
// name, so the compact table names such ops on one line.
bool Absent(const OpCoverage& op) {
  const bool no_cell = std::all_of(op.cells.begin(), op.cells.end(), [](const CoverageCell& cell) {
    return Unrun(cell.state) || cell.state == CellState::kNotRegistered;
  });
  // A property that failed is worth its own line, whatever the cells say.
  const bool no_finding = std::none_of(op.properties.begin(), op.properties.end(),
                                       [](const auto& p) { return BreaksConformance(p.second); });
  return no_cell && no_finding;
}

// Ops named on the "no kernel" line before "and N more".
constexpr std::size_t kAbsentOpsShown = 8;

void WriteAbsentOps(std::ostream& out, const CoverageTable& table, bool colour) {
  std::vector<std::string> absent;
  for (const OpCoverage& op : table.ops) {
    if (Absent(op)) absent.push_back(op.op);
  }
  if (absent.empty()) return;
  out << "  "
      << Paint(std::to_string(absent.size()) + (absent.size() == 1 ? " op" : " ops"), ansi::kDim,
               colour)
      << " with no kernel of the plugin, or no case run:";
  for (std::size_t i = 0; i < absent.size() && i < kAbsentOpsShown; ++i)
    out << (i == 0 ? " " : ", ") << absent[i];
  if (absent.size() > kAbsentOpsShown) out << " and " << absent.size() - kAbsentOpsShown << " more";
  out << " (-v lists each)\n";
}

}  // namespace

void WriteCoverageTable(std::ostream& out, const CoverageTable& table, bool verbose, bool colour,
                        const RegisteredCoverage* registered) {
  if (table.empty() && registered == nullptr) return;
  if (!table.ops.empty()) {
    out << Paint("Op coverage: ", ansi::kBold, colour) << TotalsLine(table) << '\n';
    if (verbose) {
      WriteGrid(out, table, colour);
    } else if (NoOpRan(table)) {
      out << "  (no op's case ran; -v lists each op)\n";
    } else {
      const std::size_t op_width = OpColumnWidth(table);
      for (const OpCoverage& op : table.ops) {
        if (!Absent(op)) WriteCompactLine(out, op, op_width, colour);
      }
      WriteAbsentOps(out, table, colour);
    }
  }
  if (registered != nullptr) WriteRegisteredLine(out, *registered, verbose, colour);
  if (!table.models.empty() && !verbose && NoModelRan(table)) {
    out << Paint("Model op coverage: ", ansi::kBold, colour) << table.models.size()
        << (table.models.size() == 1 ? " model" : " models")
        << ", none ran (missing kernels, or not run; -v lists each)\n";
  } else if (!table.models.empty()) {
    WriteModelRows(out, table, colour);
  }
  out << '\n';
}

}  // namespace conformance
