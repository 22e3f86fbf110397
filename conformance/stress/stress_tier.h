#pragma once
// The stress tier (not run by default; --tier stress): many streams on several host threads,
// thousands of operations with hand-overs between streams through events and stream
// dependencies, every result checked against a host model. Deterministic from the seed.
#include <vector>

#include "model/test_unit.h"

namespace conformance {

std::vector<TestUnit> StressTierUnits(const RunSettings& settings);

}  // namespace conformance
