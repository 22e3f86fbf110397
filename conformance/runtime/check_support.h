#pragma once
// What every C++ runtime check shares: a session on device 0 opened the way the tier opens it,
// one-call emission of a check's verdict, seeded data, and the harness's "wait until idle".
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/test_unit.h"
#include "runtime/byte_patterns.h"
#include "runtime/runtime.h"
#include "runtime/stream_hold.h"
#include "runtime/wait_idle.h"
#include "validate/check_log.h"

namespace conformance::runtime_checks {

using validate::CheckLog;
using validate::Details;

// What a check body has at hand.
struct CheckEnv {
  const RunSettings& settings;
  runtime::DeviceSession& session;
  runtime::Device& device;  // ordinal 0
  CheckLog& log;
  std::uint64_t seed;  // this unit's seed, derived from RunSettings.seed and the unit name
};

// The result of one check, emitted by RunCheck.
struct Verdict {
  enum class Kind { kPass, kFail, kWarning, kNotSupported, kSkipped };
  Kind kind = Kind::kPass;
  std::string message;
  Details details;

  static Verdict Pass(Details details = {}) { return {Kind::kPass, {}, std::move(details)}; }
  static Verdict Fail(std::string message, Details details = {}) {
    return {Kind::kFail, std::move(message), std::move(details)};
  }
  static Verdict Warning(std::string message, Details details = {}) {
    return {Kind::kWarning, std::move(message), std::move(details)};
  }
  static Verdict NotSupported(std::string reason) {
    return {Kind::kNotSupported, std::move(reason), {}};
  }
  // The check's subject never ran (an earlier call failed first): it may not pass.
  static Verdict Skipped(std::string reason) { return {Kind::kSkipped, std::move(reason), {}}; }
  // A call that should have worked did not: names callback, code and message.
  static Verdict CallFailed(const runtime::Error& error, std::string_view doing,
                            Details details = {});
};

// Names the culprit of a failed call the way the run layer groups root causes:
// details["failing_call"] ("host_callback") and details["problem"] ("returned false").
void Blame(Details& details, const runtime::Error& error);

// Begin(id) (timing, in-flight marking), run `body`, emit its verdict with the seed in details.
void RunCheck(CheckEnv& env, std::string_view id, const std::function<Verdict()>& body);

// A runtime-tier unit: opens a DeviceSession on settings.plugin_path and device 0, then runs
// `body`. A plugin the session cannot drive (an older SP_StreamExecutor generation, an
// emulated core of another generation) gets every check not_supported with the reason; one
// that cannot even be brought up gets them skipped with the reason.
TestUnit MakeRuntimeUnit(std::string name, std::string tier, std::vector<std::string> check_ids,
                         std::function<void(CheckEnv&)> body);

// Seeded bytes, first mismatches and the harness's "wait until idle" live in the runtime layer
// (runtime/byte_patterns.h, runtime/wait_idle.h), shared with the scenario engine.
using runtime::FirstMismatch;
using runtime::SeededBytes;
using runtime::WaitIdle;
std::uint64_t MixSeed(std::uint64_t seed, std::string_view salt);

// Work that keeps a stream busy until the check says (runtime/stream_gate.h): a host callback
// held until `gate->Open()`, or until the check's thread has spent `milliseconds` waiting (in
// block_host_until_done, polling an event, ...), then sets the returned flag. The check, not
// the machine's speed, decides what runs while it is held, so an ordering defect is caught on
// every run. On a synchronous plugin it runs inside the call and is not held.
using SlowWork = runtime::StreamHold;
SlowWork QueueSlowWork(runtime::Stream& stream, int milliseconds);
// How long the checks that hold a stream wait at most before they open it themselves.
inline constexpr int kSlowWorkMilliseconds = 150;

// When slow work did not finish, first ask whether host_callback ever ran it: a callback that
// never ran is host_callback's defect (runtime.callback.exactly_once's root cause), not a wait
// that returned early. Call after the stream is idle; nullopt when the callback did run.
std::optional<Verdict> SlowWorkNeverRan(CheckEnv& env, const SlowWork& slow);
// The verdict that blames host_callback for a callback it never ran (or ran twice), with the
// (failing_call, problem) every check uses for that defect.
Verdict CallbackNeverRan(const std::string& what);
Verdict CallbackRanTwice(const std::string& what);

std::string Describe(SE_EventStatus status);

// Device contents through the known-good copy paths (runtime/copy_legs.h: asynchronous unless that
// direction writes wrong bytes) and WaitIdle: the baseline every check relies on, so a copy
// callback that is wrong is caught only by runtime.memcpy.exact_bytes.
runtime::CallStatus WriteDevice(runtime::Stream& stream, const runtime::DeviceRange& range,
                                const std::vector<std::byte>& bytes);
runtime::CallResult<std::vector<std::byte>> ReadDevice(runtime::Stream& stream,
                                                       const runtime::DeviceRange& range);

}  // namespace conformance::runtime_checks
