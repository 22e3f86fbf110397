#pragma once
// Which units run and which results are reported: tiers, then --filter on check ids, then
// sharding over the units that survived, then the prerequisites those units need.
//  - A unit is selected when any of its check ids is selected; its other checks still
//    execute (they share the child process) but their results are dropped.
//  - A selected unit's prerequisites (TestUnit::prerequisites, check ids) must have run,
//    or the unit would only report `skipped`: the units that declare those ids run too,
//    as helpers whose results are never reported (so a sharded run never reports a check
//    twice, and `--filter 'runtime.*'` reports runtime checks only).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/test_unit.h"
#include "run/check_filter.h"
#include "run/sharding.h"
#include "run/usage_error.h"

namespace conformance {

struct SelectionOptions {
  std::vector<std::string> tiers;  // --tier values as given; empty: the default tiers
  CheckFilter filter;              // default "*"
  std::optional<ShardSpec> shard;  // from the environment
};

struct SelectedUnit {
  std::size_t suite_index;
  bool reported;  // false: runs only as a prerequisite of a reported unit
};

struct Selection {
  std::vector<std::string> tiers;        // effective tiers, canonical order
  std::vector<std::string> named_tiers;  // the ones the user named one by one (--tier X)
  CheckFilter filter;
  std::optional<ShardSpec> shard;
  // Check ids selected by tier and filter, in suite order, without duplicates. Not
  // narrowed by sharding (like gtest's --gtest_list_tests), so --list shows the same ids
  // on every shard and waivers are judged against the whole selection.
  std::vector<std::string> check_ids;
  // The units this process runs, in suite order.
  std::vector<SelectedUnit> units;

  // Whether a result with this id, emitted by a reported unit, is reported.
  bool Reports(std::string_view check_id) const { return filter.Matches(check_id); }
};

// A selection that would run no check, or a tier named with --tier that has no selected
// check: a usage error, because a run that checks nothing must never read as a pass. Its own
// type so the command line can say "cannot be loaded" first when the plugin file is unusable.
class EmptySelectionError : public UsageError {
 public:
  using UsageError::UsageError;
};

// Throws UsageError for unknown tiers, EmptySelectionError for a selection without checks.
// Selection::tiers lists the tiers that have selected checks (a default tier the filter
// empties is dropped, a named one is an error).
Selection Select(const std::vector<TestUnit>& suite, const SelectionOptions& options);

}  // namespace conformance
