#pragma once
// The profiler tier, after TF_InitProfiler registered: a stop with no session started (a unit
// of its own), and one profiling session driven the way TensorFlow's plugin tracer drives it
// (start, stop, the two-call collect_data_xspace protocol).
#include <vector>

#include "model/test_unit.h"

namespace conformance::validate {

std::vector<TestUnit> ProfilerSessionUnits();

}  // namespace conformance::validate
