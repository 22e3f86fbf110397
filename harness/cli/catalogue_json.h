#pragma once
// `--list --json FILE`: the selected checks with their catalogue entries, for tools that
// want the catalogue without parsing `--list -v`.
#include <string>
#include <vector>

#include "model/test_unit.h"
#include "report/check_lookup.h"

namespace conformance {

// {"format_version": 1, "checks": [{id, tier, origin, rule, tensorflow, fix}, ...]} in suite
// order; catalogue fields are left out for an id the catalogue does not know.
std::string RenderCatalogueJson(const std::vector<std::string>& check_ids,
                                const std::vector<TestUnit>& suite, const CheckLookup& lookup);

}  // namespace conformance
