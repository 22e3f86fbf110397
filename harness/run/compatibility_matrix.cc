#include "run/compatibility_matrix.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "run/tensorflow_verdict.h"

namespace conformance {
namespace {

bool Breaks(Outcome outcome) { return BreaksConformance(outcome); }

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
  if (report.tensorflow_verdict->value("unknown", false)) {
    return report.tensorflow_verdict->value("summary", "unknown here");
  }
  for (const CheckResult& result : report.results) {
    if (result.tier == "load" && Breaks(result.outcome)) {
      return "loads, but " + result.id + ": " + result.message;
    }
  }
  return "loads";
}

struct TierSummary {
  std::string text = "not run";
  int pass = 0;
  int fail = 0;
};

// "12 pass, 0 fail" plus any other outcome present; "skipped" when nothing ran (TensorFlow
// refuses the plugin).
TierSummary SummarizeTier(const RunReport& report, const std::string& tier) {
  std::map<Outcome, int> counts;
  for (const CheckResult& result : report.results) {
    if (result.tier == tier) ++counts[result.outcome];
  }
  TierSummary summary;
  if (counts.empty()) return summary;
  if (counts.size() == 1 && counts.begin()->first == Outcome::kSkipped) {
    summary.text = "skipped";
    return summary;
  }
  for (const auto& [outcome, count] : counts) {
    if (outcome == Outcome::kPass) summary.pass += count;
    if (Breaks(outcome)) summary.fail += count;
  }
  summary.text = std::to_string(summary.pass) + " pass, " + std::to_string(summary.fail) + " fail";
  for (Outcome outcome : kAllOutcomes) {
    if (outcome == Outcome::kPass || Breaks(outcome) || counts[outcome] == 0) continue;
    summary.text += ", " + std::to_string(counts[outcome]) + " " + std::string(ToString(outcome));
  }
  return summary;
}

void FillTiers(const RunReport& report, MatrixRow& row) {
  const TierSummary runtime = SummarizeTier(report, "runtime");
  row.runtime = runtime.text;
  row.runtime_pass = runtime.pass;
  row.runtime_fail = runtime.fail;
  for (const std::string& tier : report.tiers) {
    if (tier == "load" || tier == "runtime") continue;
    row.other_tiers.emplace_back(tier, SummarizeTier(report, tier).text);
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
  row.loads = report.tensorflow_verdict && report.tensorflow_verdict->value("loads", false);
  row.missing_symbols = MissingSymbols(report);
  row.why = Why(report, row);
  row.header_generation = report.header_generation.value_or("");
  FillTiers(report, row);
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
    for (const auto& [tier, summary] : row.other_tiers) list.back()[tier] = summary;
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
  // Columns as wide as their widest cell; "why" last, unbounded.
  std::size_t widths[] = {7, 10, 5, 7, 7};
  for (const MatrixRow& row : rows) {
    widths[0] = std::max(widths[0], row.profile.size() + 1);
    widths[1] = std::max(widths[1], row.tensorflow.size());
    widths[3] = std::max(widths[3], row.verdict.size());
    widths[4] = std::max(widths[4], row.runtime.size());
  }
  const auto cell = [&](const std::string& text, std::size_t width) {
    out << std::left << std::setw(static_cast<int>(width)) << text << "  ";
  };
  const char* headings[] = {"profile", "TensorFlow", "loads", "verdict", "runtime"};
  for (std::size_t i = 0; i < 5; ++i) cell(headings[i], widths[i]);
  out << "why\n";
  const std::string indent(widths[0] + 2, ' ');
  for (const MatrixRow& row : rows) {
    cell(row.profile + (row.built_for ? "*" : ""), widths[0]);
    cell(row.tensorflow, widths[1]);
    cell(row.loads ? "yes" : "no", widths[2]);
    cell(row.verdict, widths[3]);
    cell(row.runtime, widths[4]);
    out << row.why << '\n';
    for (const auto& [tier, summary] : row.other_tiers) {
      out << indent << tier << ": " << summary << '\n';
    }
    if (!row.missing_symbols.empty()) {
      std::string names;
      for (const auto& name : row.missing_symbols) names += (names.empty() ? "" : ", ") + name;
      out << indent << "missing symbols: " << names << '\n';
    }
  }
  out << "* the releases the plugin was built for: their rows decide the exit code\n";
}

}  // namespace conformance
