#pragma once
// The whole suite: every test unit of every tier for these settings, in the order they run.
#include <vector>

#include "model/test_unit.h"

namespace conformance {

std::vector<TestUnit> BuildSuite(const RunSettings& settings);

}  // namespace conformance
