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
#include "runtime/runtime.h"
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
  enum class Kind { kPass, kFail, kWarning, kNotSupported };
  Kind kind = Kind::kPass;
  std::string message;
  Details details;

  static Verdict Pass(Details details = {}) { return {Kind::kPass, {}, std::move(details)}; }
  static Verdict Fail(std::string message, Details details = {}) { return {Kind::kFail, std::move(message), std::move(details)}; }
  static Verdict Warning(std::string message, Details details = {}) {
    return {Kind::kWarning, std::move(message), std::move(details)};
  }
  static Verdict NotSupported(std::string reason) { return {Kind::kNotSupported, std::move(reason), {}}; }
  // A call that should have worked did not: names callback, code and message.
  static Verdict CallFailed(const runtime::Error& error, std::string_view doing, Details details = {});
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

// Seeded bytes (splitmix64): the same seed gives the same bytes on every machine.
std::vector<std::byte> SeededBytes(std::uint64_t seed, std::size_t size);
std::uint64_t MixSeed(std::uint64_t seed, std::string_view salt);

// "byte 17 of 4096: expected 0x3a, got 0x00" for the first difference; nullopt when equal.
std::optional<std::string> FirstMismatch(const std::byte* actual, const std::byte* expected, std::size_t size);

// Waits until everything queued on `stream` (and the device) has finished, by every means the
// C API offers at once: a host-callback barrier, block_host_until_done, an event recorded and
// waited for, synchronize_all_activity. A plugin with one of those broken still gets waited
// for, so only the check dedicated to that primitive notices the defect. Returns the first
// error any of them reported (the wait itself still happened through the others).
// `device_wide` = false leaves out synchronize_all_activity, for waiting on many streams in
// turn (it would wait for all of them each time).
runtime::CallStatus WaitIdle(runtime::Stream& stream, bool device_wide = true);

// Work that keeps a stream busy for `milliseconds`: a host callback that sleeps, then sets
// the returned flag. On a synchronous plugin it simply runs (and sleeps) inside the call.
struct SlowWork {
  std::shared_ptr<std::atomic<bool>> finished;
  runtime::CallStatus queued;
};
SlowWork QueueSlowWork(runtime::Stream& stream, int milliseconds);

std::string Describe(SE_EventStatus status);

// Device contents through the known-good copy paths (copy_legs.h: asynchronous unless that
// direction writes wrong bytes) and WaitIdle: the baseline every check relies on, so a copy
// callback that is wrong is caught only by runtime.memcpy.exact_bytes.
runtime::CallStatus WriteDevice(runtime::Stream& stream, const runtime::DeviceRange& range, const std::vector<std::byte>& bytes);
runtime::CallResult<std::vector<std::byte>> ReadDevice(runtime::Stream& stream, const runtime::DeviceRange& range);

}  // namespace conformance::runtime_checks
