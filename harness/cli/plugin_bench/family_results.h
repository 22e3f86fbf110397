#pragma once
// The parent's side of the family children (bench_families.h): collects what each family
// sent back, or how it ended (crash, timeout), and assembles one display output, one
// comparison table and the list of families that did not finish.
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "bench_families.h"
#include "case_registry.h"
#include "model/check_result.h"
#include "result_collector.h"

namespace conformance::bench {

// A family that did not finish: "memcpy: crash (SIGSEGV) in benchmark memcpy/htod_async/...".
// Its benchmarks that finished before keep their figures; the one in flight shows "crash" or
// "timeout" in the table; those after it have no row.
struct FamilyFailure {
  std::string family;
  std::string description;  // one line
  std::vector<std::string> backtrace;
  std::string plugin_output;
};

class FamilyResults : public FigureSource {
 public:
  explicit FamilyResults(bool json_display) : json_display_(json_display) {}

  // The results of one family's unit, as RunUnits delivered them, and the figure lines its
  // child appended to the progress file.
  void Add(const BenchFamily& family, const std::vector<CheckResult>& results,
           const std::string& progress);

  Figure Get(const std::string& benchmark_name, Metric metric) const override;
  const std::vector<CaseInfo>& cases() const { return cases_; }
  const std::vector<FamilyFailure>& failures() const { return failures_; }
  std::size_t matched() const { return matched_; }

  // Google Benchmark's output of every family as one document: console text with the
  // context once, or one JSON object whose "benchmarks" holds every family's runs.
  void PrintDisplay(std::ostream& out, std::ostream& err) const;
  void PrintFailures(std::ostream& err) const;

 private:
  bool json_display_;
  std::vector<CaseInfo> cases_;
  std::map<std::string, Figure> figures_;  // by benchmark name
  std::vector<std::string> displays_;
  std::vector<std::string> display_errors_;
  std::vector<FamilyFailure> failures_;
  std::size_t matched_ = 0;
};

}  // namespace conformance::bench
