#pragma once
// Runs a stress Plan on one device: streams split over host threads, each thread issuing its
// streams' operations in plan order (waiting, on the host, only for the record or the work
// that a hand-over depends on), then compares every read and the final device contents with
// the plan's host model, and every host callback with the ledger.
#include <string>

#include "runtime/runtime.h"
#include "stress_plan.h"

namespace conformance::stress {

struct StressOutcome {
  std::string call_error;    // the first call that failed ("op 17 (memcpy_htod on stream 3): ...")
  std::string result_error;  // the first read or final slot that differs from the model
  std::string callback_error;  // a callback not run exactly once, or out of stream order
  std::size_t operations_issued =
      0;               // plan operations the plugin accepted (all, unless a call failed)
  double seconds = 0;  // wall time actually spent, also when the run stopped early
};

StressOutcome RunPlan(runtime::Device& device, const Plan& plan, int threads);

}  // namespace conformance::stress
