#include "comparison_table.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

namespace conformance::bench {
namespace {

// How a row's figures are shown: one unit per row, so the two columns compare at a glance.
struct DisplayUnit {
  std::string name;
  double per_base;  // displayed = base * per_base
};

// Times are shown in ns, us or ms, whichever keeps the larger figure of the row readable.
DisplayUnit UnitFor(Metric metric, double largest) {
  if (metric == Metric::kBandwidth) return {"GiB/s", 1.0 / (1024.0 * 1024.0 * 1024.0)};
  const std::string suffix = metric == Metric::kMedianLatency ? " p50" : "/op";
  if (largest < 1e-6) return {"ns" + suffix, 1e9};
  if (largest < 1e-3) return {"us" + suffix, 1e6};
  return {"ms" + suffix, 1e3};
}

std::string Number(double value, int decimals = 2) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string Cell(const Figure& figure, const DisplayUnit& unit) {
  if (figure.value) return Number(*figure.value * unit.per_base);
  if (!figure.cell.empty()) return figure.cell;
  return figure.error.empty() ? "-" : "error";
}

std::string Ratio(const Figure& numerator, const Figure& denominator) {
  if (!numerator.value || !denominator.value || *denominator.value == 0) return "-";
  return Number(*numerator.value / *denominator.value);
}

void PrintRow(std::ostream& out, const std::vector<std::string>& cells,
              const std::vector<int>& widths) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    char text[128];
    // First column left-aligned (names), the rest right-aligned (numbers).
    std::snprintf(text, sizeof(text), i == 0 ? "%-*s" : "  %*s", widths[i], cells[i].c_str());
    out << text;
  }
  out << '\n';
}

const CaseInfo* FindCase(const std::vector<CaseInfo>& cases, const std::string& key,
                         const std::string& role) {
  for (const CaseInfo& info : cases) {
    if (info.key == key && info.role == role) return &info;
  }
  return nullptr;
}

}  // namespace

void PrintComparisonTable(std::ostream& out, const std::vector<CaseInfo>& cases,
                          const FigureSource& results, const TableLabels& labels) {
  const bool with_reference = !labels.reference_path.empty();
  std::vector<std::string> header = {"benchmark", "unit", "candidate"};
  if (with_reference) header.insert(header.end(), {"reference", "cand/ref"});
  header.insert(header.end(), {"memcpy", "cand/memcpy"});
  if (with_reference) header.push_back("ref/memcpy");

  std::vector<std::vector<std::string>> rows;
  std::set<std::string> seen;
  for (const CaseInfo& info : cases) {
    if (info.role == kHostRole || !seen.insert(info.key).second) continue;
    const CaseInfo* candidate_case = FindCase(cases, info.key, "candidate");
    const CaseInfo* reference_case = FindCase(cases, info.key, "reference");
    const Figure candidate =
        candidate_case ? results.Get(BenchmarkName(*candidate_case), info.metric) : Figure{};
    const Figure reference =
        reference_case ? results.Get(BenchmarkName(*reference_case), info.metric) : Figure{};
    Figure baseline;
    if (!info.baseline_key.empty()) {
      baseline =
          results.Get(BenchmarkName({info.baseline_key, kHostRole, info.metric, ""}), info.metric);
    }
    if (!candidate.value && candidate.error.empty() && !reference.value &&
        reference.error.empty()) {
      continue;  // filtered out
    }
    const DisplayUnit unit =
        UnitFor(info.metric, std::max(candidate.value.value_or(0), reference.value.value_or(0)));
    std::vector<std::string> row = {info.key, unit.name, Cell(candidate, unit)};
    if (with_reference) row.insert(row.end(), {Cell(reference, unit), Ratio(candidate, reference)});
    const bool copy = !info.baseline_key.empty();
    row.push_back(copy ? Cell(baseline, unit) : "");
    row.push_back(copy ? Ratio(candidate, baseline) : "");
    if (with_reference) row.push_back(copy ? Ratio(reference, baseline) : "");
    rows.push_back(std::move(row));
  }

  if (rows.empty()) return;  // nothing ran (e.g. --benchmark_list_tests)
  out << "\nComparison (candidate: " << labels.candidate_path;
  if (with_reference) out << "; reference: " << labels.reference_path;
  out << ")\n";
  std::vector<int> widths(header.size(), 0);
  for (std::size_t i = 0; i < header.size(); ++i) widths[i] = static_cast<int>(header[i].size());
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], static_cast<int>(row[i].size()));
  }
  PrintRow(out, header, widths);
  for (const auto& row : rows) PrintRow(out, row, widths);

  out << "Ratios compare the figures as shown: for GiB/s higher is better, for times lower is "
         "better.\n"
         "memcpy = plain host memcpy of the same size in this run; p50 = median of single "
         "operations;\n"
         "with --benchmark_repetitions, every figure is the median over repetitions.\n"
         "Kernel launch cost: not measured here (plugin_bench times StreamExecutor calls; the "
         "kernel tier checks kernels' results, not their speed).\n";
}

}  // namespace conformance::bench
