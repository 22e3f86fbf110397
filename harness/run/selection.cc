#include "run/selection.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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

}  // namespace

Selection Select(const std::vector<TestUnit>& suite, const SelectionOptions& options) {
  Selection selection{
      .tiers = ResolveTiers(options.tiers, suite),
      .filter = options.filter,
      .shard = options.shard,
      .check_ids = {},
      .units = {},
  };
  std::vector<bool> reported(suite.size(), false);
  std::unordered_set<std::string> seen_ids;
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
    reported[index] = !selection.shard || RunsOnShard(*selection.shard, position);
    ++position;
  }
  std::vector<bool> runs = reported;
  AddPrerequisiteUnits(suite, runs);
  for (std::size_t index = 0; index < suite.size(); ++index) {
    if (runs[index]) selection.units.push_back(SelectedUnit{index, reported[index]});
  }
  return selection;
}

}  // namespace conformance
