#pragma once
// The load tier as test units: the library examination, TensorFlow's module sequence, our
// stricter StreamExecutor checks, and (with --co-load) cross-plugin uniqueness.
#include <vector>

#include "model/test_unit.h"

namespace conformance::validate {

// Empty when settings.profile names no profile (the CLI rejects that before building units).
std::vector<TestUnit> LoadTierUnits(const RunSettings& settings);

}  // namespace conformance::validate
