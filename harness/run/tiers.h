#pragma once
// Tier names (the first level of the suite: load, runtime, kernels, graph, profiler, stress)
// and how the user's --tier values become the tiers a run selects.
#include <string>
#include <string_view>
#include <vector>

#include "model/test_unit.h"

namespace conformance {

// Every tier the harness knows, in the order tiers run and are reported.
const std::vector<std::string>& KnownTiers();

// Tiers run when the user names none: every tier the suite has units for, except `stress`
// (slow and load-dependent, so opt-in).
std::vector<std::string> DefaultTiers(const std::vector<TestUnit>& suite);

// --tier values: each may be a comma-separated list; `all` means every known tier.
// Returns known tiers in canonical order without duplicates; an empty request yields the
// default tiers. Throws UsageError for an unknown name (with a did-you-mean suggestion).
std::vector<std::string> ResolveTiers(const std::vector<std::string>& requested,
                                      const std::vector<TestUnit>& suite);

}  // namespace conformance
