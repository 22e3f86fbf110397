#include "run/unit_result_filing.h"

#include <algorithm>
#include <set>

namespace conformance {
namespace {

// Where a failure under an undeclared id goes; nullptr when the unit declares no check.
CheckResult* Destination(std::vector<CheckResult>& filed) {
  for (CheckResult& result : filed) {
    if (result.outcome == Outcome::kSkipped) return &result;
  }
  for (auto it = filed.rbegin(); it != filed.rend(); ++it) {
    if (!IsFailure(it->outcome)) return &*it;
  }
  return nullptr;
}

}  // namespace

std::vector<CheckResult> FileUnitResults(const TestUnit& unit, std::vector<CheckResult> results,
                                         std::vector<std::string>& dropped_ids) {
  const std::set<std::string> declared(unit.check_ids.begin(), unit.check_ids.end());
  std::vector<CheckResult> filed;
  std::vector<CheckResult> strays;
  std::set<std::string> seen;
  for (CheckResult& result : results) {
    result.tier = unit.tier;
    if (!declared.contains(result.id)) {
      if (IsFailure(result.outcome)) {
        strays.push_back(std::move(result));
      } else {
        dropped_ids.push_back(result.id);
      }
      continue;
    }
    if (!seen.insert(result.id).second) {
      dropped_ids.push_back(result.id);
      continue;
    }
    filed.push_back(std::move(result));
  }
  for (CheckResult& stray : strays) {
    CheckResult* destination = Destination(filed);
    if (destination == nullptr) {
      dropped_ids.push_back(stray.id);
      continue;
    }
    stray.details["filed_as"] = stray.id;
    if (destination->outcome != Outcome::kSkipped) {
      stray.details["replaced_outcome"] = std::string(ToString(destination->outcome));
    }
    stray.id = destination->id;
    *destination = std::move(stray);
  }
  return filed;
}

}  // namespace conformance
