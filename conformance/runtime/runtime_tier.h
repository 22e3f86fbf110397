#pragma once
// The runtime tier's C++ checks: what call sequences (the YAML scenarios) cannot express
// well — timing-dependent guarantees (synchronous copies, waits that really wait, callback
// order, the event state machine), allocation edge cases, statistics, several devices, and
// statuses left unwritten. Each unit opens its own session on device 0 and runs after the
// load tier created the stream executor.
#include <vector>

#include "model/test_unit.h"

namespace conformance {

std::vector<TestUnit> RuntimeTierUnits(const RunSettings& settings);

}  // namespace conformance
