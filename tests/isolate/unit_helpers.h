#pragma once
// Small builders shared by the isolation tests.
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "isolate/unit_runner.h"

namespace conformance {
// Readable gtest failure messages for outcomes.
inline void PrintTo(Outcome outcome, std::ostream* out) { *out << ToString(outcome); }
}  // namespace conformance

namespace conformance::testing {

inline TestUnit MakeUnit(std::string name, std::vector<std::string> check_ids,
                         std::function<void(UnitContext&)> run) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = "load";
  unit.check_ids = std::move(check_ids);
  unit.run = std::move(run);
  return unit;
}

inline CheckResult Result(std::string id, Outcome outcome, std::string message = {}) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = std::move(message);
  return result;
}

// Runs one unit and returns its results.
inline std::vector<CheckResult> RunOne(const TestUnit& unit, IsolationOptions options = {}) {
  std::vector<CheckResult> results;
  int calls = 0;
  RunUnits({unit}, RunSettings{}, options, 1, [&](std::size_t, std::vector<CheckResult> done) {
    ++calls;
    results = std::move(done);
  });
  if (calls != 1) results.clear();
  return results;
}

inline std::vector<std::string> Ids(const std::vector<CheckResult>& results) {
  std::vector<std::string> ids;
  ids.reserve(results.size());
  for (const auto& result : results) ids.push_back(result.id);
  return ids;
}

inline std::vector<Outcome> Outcomes(const std::vector<CheckResult>& results) {
  std::vector<Outcome> outcomes;
  outcomes.reserve(results.size());
  for (const auto& result : results) outcomes.push_back(result.outcome);
  return outcomes;
}

}  // namespace conformance::testing
