#include "run/compatibility_matrix.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "run/tensorflow_verdict.h"

namespace conformance {
namespace {

bool Breaks(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kCrash || outcome == Outcome::kTimeout ||
         outcome == Outcome::kUnexpectedPass;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::vector<std::string> MissingSymbols(const RunReport& report) {
  for (const CheckResult& result : report.results) {
    if (result.id != "load.library.imports" || !Breaks(result.outcome)) continue;
    if (auto it = result.details.find("missing_symbols"); it != result.details.end()) {
      return SplitCommas(it->second);
    }
  }
  return {};
}

// "loads", or what TensorFlow refuses, or what breaks although TensorFlow loads it (a struct
// written past the core's end, say): the first load-tier finding, which is the root of the rest.
std::string Why(const RunReport& report, const MatrixRow& row) {
  if (!row.missing_symbols.empty()) {
    std::string names;
    for (const auto& name : row.missing_symbols) names += (names.empty() ? "" : ", ") + name;
    return "dlopen fails: TensorFlow " + row.tensorflow + " does not export " + names;
  }
  if (TensorFlowRefuses(report.tensorflow_verdict)) {
    return report.tensorflow_verdict->value("summary", "refuses the plugin");
  }
  if (!report.tensorflow_verdict) {
    return report.load_failure.empty() ? "the load tier decided nothing" : report.load_failure;
  }
  for (const CheckResult& result : report.results) {
    if (result.tier == "load" && Breaks(result.outcome)) {
      return "loads, but " + result.id + ": " + result.message;
    }
  }
  return "loads";
}

void FillRuntime(const RunReport& report, MatrixRow& row) {
  std::map<Outcome, int> counts;
  for (const CheckResult& result : report.results) {
    if (result.tier == "runtime") ++counts[result.outcome];
  }
  if (counts.empty()) {
    row.runtime = "not run";
    return;
  }
  if (counts.size() == 1 && counts.begin()->first == Outcome::kSkipped) {
    row.runtime = "skipped";  // TensorFlow refuses the plugin: nothing to drive
    return;
  }
  for (const auto& [outcome, count] : counts) {
    if (outcome == Outcome::kPass) row.runtime_pass += count;
    if (Breaks(outcome)) row.runtime_fail += count;
  }
  row.runtime =
      std::to_string(row.runtime_pass) + " pass, " + std::to_string(row.runtime_fail) + " fail";
  for (Outcome outcome : kAllOutcomes) {
    if (outcome == Outcome::kPass || Breaks(outcome) || counts[outcome] == 0) continue;
    row.runtime += ", " + std::to_string(counts[outcome]) + " " + std::string(ToString(outcome));
  }
}

std::string Verdict(ExitCode code) {
  switch (code) {
    case ExitCode::kConformant: return "conformant";
    case ExitCode::kPluginNotLoaded: return "not loaded";
    default: return "not conformant";
  }
}

}  // namespace

MatrixRow MakeMatrixRow(const MatrixGeneration& generation, const RunReport& report) {
  MatrixRow row;
  row.profile = generation.profile;
  row.tensorflow = generation.releases;
  row.loads = report.tensorflow_verdict && !TensorFlowRefuses(report.tensorflow_verdict);
  row.missing_symbols = MissingSymbols(report);
  row.why = Why(report, row);
  row.header_generation = report.header_generation.value_or("");
  FillRuntime(report, row);
  row.exit_code = VerdictExitCode(report);
  row.verdict = Verdict(row.exit_code);
  return row;
}

void MarkBuiltFor(std::vector<MatrixRow>& rows, const std::vector<MatrixGeneration>& generations) {
  std::string decoded;
  for (const MatrixRow& row : rows) {
    if (!row.header_generation.empty()) decoded = row.header_generation;
  }
  const auto mark = [&](bool narrow_by_imports) {
    bool any = false;
    for (std::size_t i = 0; i < rows.size() && i < generations.size(); ++i) {
      rows[i].built_for = !decoded.empty() && generations[i].generation == decoded &&
                          (!narrow_by_imports || rows[i].missing_symbols.empty());
      any = any || rows[i].built_for;
    }
    return any;
  };
  if (mark(true) || mark(false)) return;
  if (!rows.empty()) rows.front().built_for = true;  // newest first
}

ExitCode MatrixExitCode(const std::vector<MatrixRow>& rows) {
  // Severity, not numeric order: not loaded (3) is worse than not conformant (1).
  const auto rank = [](ExitCode code) {
    return code == ExitCode::kPluginNotLoaded ? 2 : code == ExitCode::kNotConformant ? 1 : 0;
  };
  ExitCode worst = ExitCode::kConformant;
  for (const MatrixRow& row : rows) {
    if (row.built_for && rank(row.exit_code) > rank(worst)) worst = row.exit_code;
  }
  return worst;
}

nlohmann::json MatrixJson(const std::vector<MatrixRow>& rows) {
  nlohmann::json list = nlohmann::json::array();
  for (const MatrixRow& row : rows) {
    list.push_back({{"profile", row.profile},
                    {"tensorflow", row.tensorflow},
                    {"loads", row.loads},
                    {"why", row.why},
                    {"missing_symbols", row.missing_symbols},
                    {"header_generation", row.header_generation},
                    {"built_for", row.built_for},
                    {"verdict", row.verdict},
                    {"runtime", row.runtime},
                    {"runtime_pass", row.runtime_pass},
                    {"runtime_fail", row.runtime_fail},
                    {"exit_code", static_cast<int>(row.exit_code)}});
  }
  return {{"rows", list}};
}

void WriteMatrixTable(std::ostream& out, const std::string& plugin,
                      const std::vector<MatrixRow>& rows) {
  out << "\nCompatibility matrix for " << plugin << '\n';
  for (const MatrixRow& row : rows) {
    if (row.header_generation.empty()) continue;
    out << "built against: " << row.header_generation << " headers\n";
    break;
  }
  const auto cell = [&](const std::string& text, int width) {
    out << std::left << std::setw(width) << text << "  ";
  };
  cell("profile", 8);
  cell("TensorFlow", 10);
  cell("loads", 5);
  cell("verdict", 14);
  cell("runtime", 22);
  out << "why\n";
  for (const MatrixRow& row : rows) {
    cell(row.profile + (row.built_for ? "*" : ""), 8);
    cell(row.tensorflow, 10);
    cell(row.loads ? "yes" : "no", 5);
    cell(row.verdict, 14);
    cell(row.runtime, 22);
    out << row.why << '\n';
    if (!row.missing_symbols.empty()) {
      std::string names;
      for (const auto& name : row.missing_symbols) names += (names.empty() ? "" : ", ") + name;
      out << std::string(8 + 2, ' ') << "missing symbols: " << names << '\n';
    }
  }
  out << "* the generation the plugin was built for: its rows decide the exit code\n";
}

}  // namespace conformance
