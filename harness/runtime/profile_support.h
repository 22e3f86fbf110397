#pragma once
// How the runtime layer opens a plugin for a run: under the core generation the run emulates
// (--profile), so every driver (runtime checks, scenarios, kernels, stress) sees the same
// pre-filled sizes and the same decoded SP_StreamExecutor.
#include "model/test_unit.h"
#include "runtime/device_session.h"

namespace conformance::runtime {

SessionOptions SessionOptionsFor(const RunSettings& settings);

}  // namespace conformance::runtime
