#include "family_results.h"

#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace conformance::bench {
namespace {

constexpr std::string_view kBenchmarkCallPrefix = "benchmark ";

std::string Detail(const CheckResult& result, const std::string& key) {
  const auto found = result.details.find(key);
  return found == result.details.end() ? std::string() : found->second;
}

// Console output after the first family: drop the column header Google Benchmark prints at
// the top of every run (a dashed line, the column names, a dashed line).
std::string WithoutConsoleHeader(const std::string& text) {
  std::size_t position = 0;
  for (int line = 0; line < 3; ++line) {
    const std::size_t end = text.find('\n', position);
    const bool dashed = text.compare(position, 3, "---") == 0;
    if (end == std::string::npos || (line != 1 && !dashed)) return text;
    position = end + 1;
  }
  return text.substr(position);
}

}  // namespace

void FamilyResults::Add(const BenchFamily& family, const std::vector<CheckResult>& results,
                        const std::string& progress) {
  std::istringstream lines(progress);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("name")) continue;  // a line cut short by a crash
    Figure figure;
    if (json.contains("value")) figure.value = json.at("value").get<double>();
    if (json.contains("error")) figure.error = json.at("error").get<std::string>();
    figures_[json.at("name").get<std::string>()] = figure;
  }
  std::vector<CaseInfo> family_cases;
  for (const CheckResult& result : results) {
    if (result.id == RegisteredCheck(family) && result.outcome == Outcome::kPass) {
      const nlohmann::json cases = nlohmann::json::parse(Detail(result, "cases"));
      for (const auto& json : cases) {
        family_cases.push_back({json.at("key"), json.at("role"),
                                static_cast<Metric>(json.at("metric").get<int>()),
                                json.at("baseline_key")});
      }
    } else if (result.id == RunCheck(family) && result.outcome == Outcome::kPass) {
      displays_.push_back(Detail(result, "display"));
      display_errors_.push_back(Detail(result, "display_errors"));
      matched_ += std::stoul("0" + Detail(result, "matched"));
    } else if (result.outcome == Outcome::kFail) {
      failures_.push_back(
          {family.name, family.name + ": " + result.message, {}, result.plugin_output});
    } else if (result.outcome == Outcome::kCrash || result.outcome == Outcome::kTimeout) {
      const std::string how = result.outcome == Outcome::kCrash ? "crash" : "timeout";
      const std::string signal = result.crash ? result.crash->signal : "";
      const std::string last_call = result.crash ? result.crash->last_call : "";
      std::string in_flight;  // the benchmark that was running, when the marker says so
      if (std::string_view(last_call).starts_with(kBenchmarkCallPrefix)) {
        in_flight = last_call.substr(kBenchmarkCallPrefix.size());
      }
      std::string description = family.name + ": " + how;
      if (result.outcome == Outcome::kCrash && !signal.empty()) description += " (" + signal + ")";
      if (result.outcome == Outcome::kTimeout && signal.starts_with("timeout ")) {
        description = family.name + ": " + signal;  // "timeout after 5000 ms"
      }
      if (!last_call.empty()) description += " in " + last_call;
      description += "; the family's remaining benchmarks did not run";
      failures_.push_back({family.name, description,
                           result.crash ? result.crash->backtrace : std::vector<std::string>{},
                           result.plugin_output});
      if (!in_flight.empty()) figures_[in_flight] = {std::nullopt, description, how};
    }
  }
  cases_.insert(cases_.end(), family_cases.begin(), family_cases.end());
}

Figure FamilyResults::Get(const std::string& benchmark_name, Metric) const {
  const auto found = figures_.find(benchmark_name);
  return found == figures_.end() ? Figure{} : found->second;
}

void FamilyResults::PrintDisplay(std::ostream& out, std::ostream& err) const {
  if (json_display_) {
    nlohmann::json merged;
    for (const std::string& text : displays_) {
      if (text.empty()) continue;
      const nlohmann::json document =
          nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (document.is_discarded()) continue;
      if (merged.is_null()) {
        merged = document;
        continue;
      }
      if (!document.contains("benchmarks")) continue;
      for (const auto& run : document.at("benchmarks")) merged["benchmarks"].push_back(run);
    }
    if (!merged.is_null()) out << merged.dump(2) << "\n";
    return;
  }
  bool first = true;
  for (std::size_t i = 0; i < displays_.size(); ++i) {
    if (displays_[i].empty()) continue;    // the filter matched nothing in this family
    if (first) err << display_errors_[i];  // the context (CPU, caches, load), once
    out << (first ? displays_[i] : WithoutConsoleHeader(displays_[i]));
    first = false;
  }
  out.flush();
}

void FamilyResults::PrintFailures(std::ostream& err) const {
  for (const FamilyFailure& failure : failures_) {
    err << "plugin_bench: " << failure.description << "\n";
    for (const std::string& frame : failure.backtrace) err << "    " << frame << "\n";
    if (!failure.plugin_output.empty()) err << "  the plugin printed:\n" << failure.plugin_output;
  }
}

}  // namespace conformance::bench
