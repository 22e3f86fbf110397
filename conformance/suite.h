#pragma once
// The whole suite: every test unit of every tier, in the order they should run.
#include <vector>

#include "model/test_unit.h"

namespace conformance {

std::vector<TestUnit> BuildSuite();

}  // namespace conformance
