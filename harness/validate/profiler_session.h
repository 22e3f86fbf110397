#pragma once
// The profiler tier: one profiling session driven the way TensorFlow's plugin tracer drives it
// (start, stop, the two-call collect_data_xspace protocol), after TF_InitProfiler registered.
#include "model/test_unit.h"

namespace conformance::validate {

TestUnit ProfilerSessionUnit();

}  // namespace conformance::validate
