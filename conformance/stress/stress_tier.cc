#include "stress_tier.h"

#include <cstdio>
#include <string>

#include "check_support.h"
#include "stress_plan.h"
#include "stress_run.h"

namespace conformance {
namespace {

using runtime_checks::CheckEnv;
using runtime_checks::Details;

// 16 streams over 4 host threads and 20000 operations (PlanShape's defaults): a fraction of a
// second on the reference plugin on a 2-core machine, inside the tier's 5-second budget (and
// the unit's timeout) even under ThreadSanitizer.
constexpr int kThreads = 4;

void RunStressUnit(CheckEnv& env) {
  stress::PlanShape shape;
  shape.with_dtod = env.device.se().memcpy_dtod != nullptr;
  shape.with_fills = env.session.GenerationHas("memset");
  const stress::Plan plan = stress::MakePlan(env.seed, shape);
  char seed[32];
  std::snprintf(seed, sizeof seed, "0x%016llx", static_cast<unsigned long long>(env.seed));
  Details details{{"seed", seed},
                  {"operations_planned", std::to_string(plan.ops.size())},
                  {"streams", std::to_string(shape.streams)},
                  {"threads", std::to_string(kThreads)},
                  {"events", std::to_string(plan.events)},
                  {"callbacks", std::to_string(plan.callbacks)}};

  env.log.Begin("stress.streams.results");
  const stress::StressOutcome outcome = stress::RunPlan(env.device, plan, kThreads);
  // What actually ran: an aborted run must not read as the whole plan done.
  details["operations"] = std::to_string(outcome.operations_issued);
  details["seconds"] = std::to_string(outcome.seconds);
  if (!outcome.call_error.empty()) {
    env.log.Fail("stress.streams.results",
                 "a call failed after " + std::to_string(outcome.operations_issued) + " of " +
                     std::to_string(plan.ops.size()) + " operations: " + outcome.call_error,
                 std::nullopt, details);
    env.log.Skip("stress.streams.callbacks",
                 "the workload did not complete (see stress.streams.results)");
    return;
  }
  if (!outcome.result_error.empty()) {
    env.log.Fail("stress.streams.results",
                 "the device disagrees with the host model: " + outcome.result_error, std::nullopt,
                 details);
  } else {
    env.log.Pass("stress.streams.results", details);
  }
  env.log.Begin("stress.streams.callbacks");
  if (!outcome.callback_error.empty()) {
    env.log.Fail("stress.streams.callbacks", outcome.callback_error, std::nullopt, details);
  } else {
    env.log.Pass("stress.streams.callbacks", details);
  }
}

}  // namespace

std::vector<TestUnit> StressTierUnits(const RunSettings& /*settings*/) {
  return {runtime_checks::MakeRuntimeUnit("stress.streams", "stress",
                                          {"stress.streams.results", "stress.streams.callbacks"},
                                          RunStressUnit)};
}

}  // namespace conformance
