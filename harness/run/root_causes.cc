#include "run/root_causes.h"

#include <map>
#include <utility>

namespace conformance {
namespace {

bool IsFailure(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kCrash || outcome == Outcome::kTimeout;
}

const std::string* Detail(const CheckResult& result, const char* key) {
  const auto found = result.details.find(key);
  return found == result.details.end() || found->second.empty() ? nullptr : &found->second;
}

}  // namespace

std::vector<RootCause> GroupRootCauses(const std::vector<CheckResult>& results) {
  std::vector<RootCause> causes;
  std::map<std::pair<std::string, std::string>, std::size_t> index_of;
  for (const CheckResult& result : results) {
    if (!IsFailure(result.outcome)) continue;
    const std::string* call = Detail(result, kFailingCallKey);
    const std::string* problem = Detail(result, kProblemKey);
    if (call != nullptr && problem != nullptr) {
      const auto [slot, inserted] = index_of.try_emplace({*call, *problem}, causes.size());
      if (!inserted) {
        causes[slot->second].checks.push_back(result.id);
        continue;
      }
    }
    causes.push_back(
        RootCause{call ? *call : "", problem ? *problem : "", result.message, {result.id}});
  }
  return causes;
}

}  // namespace conformance
