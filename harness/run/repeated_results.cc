#include "run/repeated_results.h"

#include <map>
#include <string>

namespace conformance {
namespace {

struct Seen {
  std::vector<std::string> outcomes;  // one per run
  std::vector<CheckResult> results;   // as reported, in run order; absent runs add none
};

std::string Joined(const std::vector<std::string>& outcomes) {
  std::string text;
  for (const std::string& outcome : outcomes) text += (text.empty() ? "" : ",") + outcome;
  return text;
}

CheckResult Flaky(const Seen& seen) {
  // The first run that did not pass says what goes wrong when the check flakes.
  std::size_t shown = 0;
  for (std::size_t i = 0; i < seen.results.size(); ++i) {
    if (seen.results[i].outcome != Outcome::kPass) {
      shown = i;
      break;
    }
  }
  CheckResult result = seen.results[shown];
  const std::string outcome(ToString(result.outcome));
  result.details["outcomes"] = Joined(seen.outcomes);
  result.details["flaky_shown_outcome"] = outcome;
  result.message = "outcome varied over " + std::to_string(seen.outcomes.size()) + " runs (" +
                   Joined(seen.outcomes) + ")" +
                   (result.message.empty() ? "" : "; " + outcome + ": " + result.message);
  result.outcome = Outcome::kFlaky;  // a crash keeps its signal and backtrace
  return result;
}

}  // namespace

std::vector<CheckResult> MergeRepeatedRuns(std::vector<std::vector<CheckResult>> runs) {
  if (runs.size() == 1) return std::move(runs.front());
  std::vector<std::string> order;
  std::map<std::string, Seen> by_id;
  for (std::size_t run = 0; run < runs.size(); ++run) {
    for (CheckResult& result : runs[run]) {
      Seen& seen = by_id[result.id];
      if (seen.outcomes.empty() && seen.results.empty()) order.push_back(result.id);
      seen.outcomes.resize(run, "absent");  // runs that did not report it
      seen.outcomes.emplace_back(ToString(result.outcome));
      seen.results.push_back(std::move(result));
    }
  }
  std::vector<CheckResult> merged;
  for (const std::string& id : order) {
    Seen& seen = by_id.at(id);
    seen.outcomes.resize(runs.size(), "absent");
    bool varied = false;
    for (const std::string& outcome : seen.outcomes) varied = varied || outcome != seen.outcomes[0];
    if (!varied) {
      CheckResult result = std::move(seen.results.front());
      result.details["runs"] = std::to_string(runs.size());
      merged.push_back(std::move(result));
    } else {
      merged.push_back(Flaky(seen));
    }
  }
  return merged;
}

}  // namespace conformance
