#pragma once
// --list: the selected check ids, one per line in suite order (the order they run), so the
// output diffs cleanly between versions; verbose adds the origin and rule from the catalogue.
#include <ostream>
#include <string>
#include <vector>

#include "report/check_lookup.h"

namespace conformance {

void WriteCheckList(std::ostream& out, const std::vector<std::string>& check_ids, bool verbose,
                    const CheckLookup& lookup);

}  // namespace conformance
