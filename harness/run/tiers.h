#pragma once
// Tier names (the first level of the suite: load, runtime, kernels, graph, profiler, stress)
// and how the user's --tier values become the tiers a run selects.
#include <string>
#include <string_view>
#include <vector>

#include "model/test_unit.h"

namespace conformance {

// Every tier the harness knows, in the order tiers run and are reported. A known tier may
// have no units yet (or none for a plugin); selecting it by name is then a usage error
// (see Select), never a silent pass.
const std::vector<std::string>& KnownTiers();

// Tiers run when the user names none: every tier the suite has units for, except `stress`
// (slow and load-dependent, so opt-in).
std::vector<std::string> DefaultTiers(const std::vector<TestUnit>& suite);

// Tiers that drive the device as TensorFlow would after loading the plugin (runtime, stress,
// kernels): pointless, and misleading, for a plugin TensorFlow refuses, so gated on the load
// tier's verdict.
bool NeedsALoadablePlugin(const TestUnit& unit);

// Tiers the suite has units for, in canonical order.
std::vector<std::string> TiersInSuite(const std::vector<TestUnit>& suite);

struct TierRequest {
  // Tiers to select from, canonical order, no duplicates.
  std::vector<std::string> tiers;
  // Tiers the user named one by one (not through `all` or the default): each must end up
  // with at least one selected check.
  std::vector<std::string> named;
};

// The known tiers the --tier values name (comma lists split), in canonical order: the tiers
// whose units the suite must build (RunSettings::built_tiers). Empty when they name none (the
// default tiers) or include `all`. Unknown names are left to ResolveTiers to report.
std::vector<std::string> TiersToBuild(const std::vector<std::string>& requested);

// --tier values: each may be a comma-separated list; `all` means every tier the suite has
// units for; no value means the default tiers. Throws UsageError for an unknown name (with a
// did-you-mean suggestion).
TierRequest ResolveTiers(const std::vector<std::string>& requested,
                         const std::vector<TestUnit>& suite);

}  // namespace conformance
