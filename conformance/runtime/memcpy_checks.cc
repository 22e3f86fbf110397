// Every copy direction and every fill writes exactly the bytes asked for, each checked on its
// own through a known-good way in and out (runtime/copy_legs.h). This is the one check that blames
// a copy or fill callback for wrong bytes; the others read through the known-good paths.
#include <string>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

Verdict ExactBytes(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  // Without device memory no copy can round-trip: that is allocate's fault, said once there.
  if (auto scratch = env.device.Allocate(4096); !scratch.ok())
    return Verdict::CallFailed(scratch.error(), "allocate");
  const CopyPaths& paths = KnownGoodPaths(*stream);
  if (!paths.trusted) {
    return Verdict::Fail(
        "no pairing of memcpy_htod / sync_memcpy_htod with memcpy_dtoh / sync_memcpy_dtoh "
        "returns the bytes written, even after synchronize_all_activity",
        {{"failing_call", "memcpy_htod"}, {"problem", "no copy path round-trips"}});
  }
  const std::vector<LegFault> faults = FindWrongLegs(*stream, env.seed);
  Details details{{"copy_in", paths.async_in ? "memcpy_htod" : "sync_memcpy_htod"},
                  {"copy_out", paths.async_out ? "memcpy_dtoh" : "sync_memcpy_dtoh"}};
  if (faults.empty()) return Verdict::Pass(details);
  std::string message = faults.front().description;
  for (std::size_t i = 1; i < faults.size(); ++i) message += "; also " + faults[i].description;
  details["failing_call"] = faults.front().failing_call;
  details["problem"] = faults.front().problem;
  return Verdict::Fail(message, details);
}

}  // namespace

std::vector<TestUnit> MemcpyUnits() {
  return {MakeRuntimeUnit(
      "runtime.memcpy", "runtime", {"runtime.memcpy.exact_bytes"}, [](CheckEnv& env) {
        RunCheck(env, "runtime.memcpy.exact_bytes", [&] { return ExactBytes(env); });
      })};
}

}  // namespace conformance::runtime_checks
