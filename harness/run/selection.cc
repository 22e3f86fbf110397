#include "run/selection.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "run/did_you_mean.h"
#include "run/tiers.h"

namespace conformance {
namespace {

// Marks, transitively, the units that declare the prerequisites of already marked units.
void AddPrerequisiteUnits(const std::vector<TestUnit>& suite, std::vector<bool>& runs) {
  std::unordered_map<std::string, std::vector<std::size_t>> producers;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    for (const std::string& id : suite[index].check_ids) producers[id].push_back(index);
  }
  std::vector<std::size_t> pending;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (runs[index]) pending.push_back(index);
  }
  while (!pending.empty()) {
    const std::size_t index = pending.back();
    pending.pop_back();
    for (const std::string& prerequisite : suite[index].prerequisites) {
      const auto found = producers.find(prerequisite);
      if (found == producers.end()) continue;  // the runner reports it as unmet
      for (std::size_t producer : found->second) {
        if (runs[producer]) continue;
        runs[producer] = true;
        pending.push_back(producer);
      }
    }
  }
}

// TensorFlow's verdict (does it load the plugin?) depends on the whole load tier, and gates the
// runtime, stress and kernel tiers: a run that reports any of those, or any load check, runs
// every load unit (unreported unless selected), so a shard or `--tier kernels` states the same
// verdict as the whole run.
void AddLoadTierForTheVerdict(const std::vector<TestUnit>& suite, std::vector<bool>& runs) {
  bool needs_verdict = false;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (runs[index] && (suite[index].tier == "load" || NeedsALoadablePlugin(suite[index])))
      needs_verdict = true;
  }
  if (!needs_verdict) return;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (suite[index].tier == "load") runs[index] = true;
  }
}

// The installed TensorFlow's cases all run in one session of the plugin there, whose load and
// own steps (load.in_tensorflow, runtime.session.in_tensorflow: its units of tier load) come
// first whatever is selected: a run of any of its units runs those too (unreported unless
// selected), so each shard says what TensorFlow did with the plugin before its cases.
void AddInstalledTensorFlowSession(const std::vector<TestUnit>& suite, std::vector<bool>& runs) {
  bool any = false;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    any = any || (runs[index] && suite[index].in_installed_tensorflow);
  }
  if (!any) return;
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (suite[index].in_installed_tensorflow && suite[index].tier == "load") runs[index] = true;
  }
}

// Every id and every dotted prefix of it as "prefix.*": what a filter pattern was probably
// meant to be.
std::vector<std::string> FilterCandidates(const std::vector<TestUnit>& suite) {
  std::set<std::string> candidates;
  for (const TestUnit& unit : suite) {
    for (const std::string& id : unit.check_ids) {
      candidates.insert(id);
      for (std::size_t dot = id.find('.'); dot != std::string::npos; dot = id.find('.', dot + 1)) {
        candidates.insert(id.substr(0, dot) + ".*");
      }
    }
  }
  return {candidates.begin(), candidates.end()};
}

std::string FilterSuggestion(const std::vector<TestUnit>& suite, const CheckFilter& filter) {
  const std::vector<std::string> candidates = FilterCandidates(suite);
  for (const std::string& pattern : filter.positive_patterns()) {
    if (auto suggestion = ClosestMatch(pattern, candidates); suggestion && *suggestion != pattern) {
      return " (did you mean '" + *suggestion + "'?)";
    }
  }
  return "";
}

// " (it selects checks of tiers runtime)" when the filter matches checks outside `tier`.
std::string OtherTiersNote(const std::vector<TestUnit>& suite, const CheckFilter& filter,
                           const std::string& tier) {
  std::set<std::string> others;
  for (const TestUnit& unit : suite) {
    if (unit.tier == tier) continue;
    for (const std::string& id : unit.check_ids) {
      if (filter.Matches(id)) others.insert(unit.tier);
    }
  }
  if (others.empty()) return "";
  std::string text = " (it selects checks of tier";
  text += others.size() == 1 ? " " : "s ";
  bool first = true;
  for (const std::string& other : others) {
    text += (first ? "" : ", ") + other;
    first = false;
  }
  return text + ")";
}

std::string JoinTiers(const std::vector<std::string>& tiers) {
  std::string text;
  for (const std::string& tier : tiers) text += (text.empty() ? "" : ", ") + tier;
  return text;
}

// Named tiers without a selected check, then an empty selection: usage errors.
void RequireChecks(const std::vector<TestUnit>& suite, const TierRequest& request,
                   const CheckFilter& filter, const std::set<std::string>& tiers_with_checks,
                   bool any_check) {
  const std::vector<std::string> present = TiersInSuite(suite);
  for (const std::string& tier : request.named) {
    if (tiers_with_checks.contains(tier)) continue;
    if (std::find(present.begin(), present.end(), tier) == present.end()) {
      throw EmptySelectionError("tier '" + tier +
                                "' has no checks for this plugin and settings (tiers with "
                                "checks: " +
                                JoinTiers(present) + ")");
    }
    const std::string note = OtherTiersNote(suite, filter, tier);
    throw EmptySelectionError("--filter '" + filter.text() + "' selects no check of tier '" + tier +
                              "'" + (note.empty() ? FilterSuggestion(suite, filter) : note) +
                              "; see --list --tier " + tier);
  }
  if (!any_check) {
    throw EmptySelectionError("--filter '" + filter.text() + "' selects no check of tiers " +
                              JoinTiers(request.tiers) + FilterSuggestion(suite, filter) +
                              "; see --list");
  }
}

}  // namespace

Selection Select(const std::vector<TestUnit>& suite, const SelectionOptions& options) {
  const TierRequest request = ResolveTiers(options.tiers, suite);
  Selection selection{
      .tiers = request.tiers,
      .named_tiers = request.named,
      .filter = options.filter,
      .shard = options.shard,
      .check_ids = {},
      .units = {},
  };
  std::vector<bool> reported(suite.size(), false);
  std::unordered_set<std::string> seen_ids;
  std::set<std::string> tiers_with_checks;
  std::size_t position = 0;  // counts selected units only, as gtest counts filtered tests
  for (std::size_t index = 0; index < suite.size(); ++index) {
    const TestUnit& unit = suite[index];
    if (std::find(selection.tiers.begin(), selection.tiers.end(), unit.tier) ==
        selection.tiers.end()) {
      continue;
    }
    bool any_selected = false;
    for (const std::string& id : unit.check_ids) {
      if (!selection.filter.Matches(id)) continue;
      any_selected = true;
      if (seen_ids.insert(id).second) selection.check_ids.push_back(id);
    }
    if (!any_selected) continue;
    tiers_with_checks.insert(unit.tier);
    reported[index] = !selection.shard || RunsOnShard(*selection.shard, position);
    ++position;
  }
  RequireChecks(suite, request, selection.filter, tiers_with_checks, !selection.check_ids.empty());
  std::erase_if(selection.tiers,
                [&](const std::string& tier) { return !tiers_with_checks.contains(tier); });
  std::vector<bool> runs = reported;
  AddPrerequisiteUnits(suite, runs);
  AddInstalledTensorFlowSession(suite, runs);
  AddLoadTierForTheVerdict(suite, runs);
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (runs[index]) selection.units.push_back(SelectedUnit{index, reported[index]});
  }
  return selection;
}

}  // namespace conformance
