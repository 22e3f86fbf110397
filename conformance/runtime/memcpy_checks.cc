// Every copy direction and every fill writes exactly the bytes asked for, each checked on its
// own through a known-good way in and out (runtime/copy_legs.h). This is the one check that blames
// a copy or fill callback for wrong bytes; the others read through the known-good paths.
// runtime.memcpy.status_ok: the stream calls only this unit drives report OK, since the legs
// above skip a call that reports an error and no other C++ check makes these calls its own.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "runtime/blame.h"
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

// memcpy_dtod and the fills on whole, valid allocations of a fresh stream: an error status
// (reported by the call, or left on the stream for the wait after it) is blamed on that call.
Verdict StatusOk(CheckEnv& env) {
  constexpr std::uint64_t kBytes = 4096;
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  auto source = env.device.Allocate(kBytes);
  auto destination = env.device.Allocate(kBytes);
  if (!source.ok()) return Verdict::CallFailed(source.error(), "allocate");
  if (!destination.ok()) return Verdict::CallFailed(destination.error(), "allocate");
  const runtime::DeviceRange from = source->All(), to = destination->All();
  std::vector<std::pair<const char*, std::function<runtime::CallStatus()>>> calls = {
      {"memcpy_dtod", [&] { return stream->MemcpyDtoD(to, from, kBytes); }}};
  // Plugins built against TF <= 2.9 headers have no fills.
  if (env.session.GenerationHas("memset")) {
    calls.push_back({"memset", [&] { return stream->Memset(to, 0x5a, kBytes); }});
    calls.push_back({"memset32", [&] { return stream->Memset32(to, 0x01234567u, kBytes); }});
    calls.push_back({"mem_zero", [&] { return stream->MemZero(to, kBytes); }});
  }
  for (const auto& [name, call] : calls) {
    if (auto status = call(); !status.ok()) return Verdict::CallFailed(status.error(), name);
    if (auto waited = WaitIdle(*stream); !waited.ok()) {
      Details details{{"failing_call", name}, {"problem", runtime::ProblemOf(waited.error().kind)}};
      return Verdict::Fail(
          std::string("the stream failed after ") + name + ": " + waited.error().Describe(),
          std::move(details));
    }
  }
  return Verdict::Pass();
}

}  // namespace

std::vector<TestUnit> MemcpyUnits() {
  return {MakeRuntimeUnit(
      "runtime.memcpy", "runtime", {"runtime.memcpy.exact_bytes", "runtime.memcpy.status_ok"},
      [](CheckEnv& env) {
        RunCheck(env, "runtime.memcpy.exact_bytes", [&] { return ExactBytes(env); });
        RunCheck(env, "runtime.memcpy.status_ok", [&] { return StatusOk(env); });
      })};
}

}  // namespace conformance::runtime_checks
