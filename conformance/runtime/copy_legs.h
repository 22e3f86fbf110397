#pragma once
// Blame the callback that is wrong, not the one that noticed. A read-back that differs is
// first re-read after everything is synchronised: right bytes then mean the observing call
// returned early ("late completion"); still-wrong bytes are localised leg by leg. A known-good
// way in and a known-good way out (host pattern → device → host) are found by trying every
// pairing of the synchronous and asynchronous copies; through them each copy direction and
// each fill is checked on its own and, when wrong, described: "shifted by +1", "all zeros",
// "a constant fill of 0x5a", "only the first 100 of 4096 bytes written".
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check_support.h"

namespace conformance::runtime_checks {

// How `actual` differs from `expected` ("shifted by +1", "all zeros", ...), then the first
// differing byte; "" when equal.
std::string DescribeWrongBytes(const std::byte* actual, const std::byte* expected, std::size_t size);

// "wrong bytes written by <call> (shifted by +1): byte 1 of 4096: ..." as a failed verdict
// with details failing_call = call and problem = "wrong bytes written".
Verdict WrongBytesVerdict(const std::string& call, const std::vector<std::byte>& actual,
                          const std::vector<std::byte>& expected);

// Which copy directions the harness may trust to move host bytes in and out of the device.
struct CopyPaths {
  bool async_in = true;   // memcpy_htod on a stream (else sync_memcpy_htod)
  bool async_out = true;  // memcpy_dtoh on a stream (else sync_memcpy_dtoh)
  bool trusted = false;   // some pairing round-tripped a pattern exactly
};
// Probed once per device and process; asynchronous first, the path TensorFlow uses most.
const CopyPaths& KnownGoodPaths(runtime::Stream& stream);

// Host bytes onto the device and back through the known-good paths, waiting until idle.
runtime::CallStatus CopyIn(runtime::Stream& stream, const runtime::DeviceRange& range, const std::vector<std::byte>& bytes);
runtime::CallResult<std::vector<std::byte>> CopyOut(runtime::Stream& stream, const runtime::DeviceRange& range);

// A callback that writes wrong bytes. failing_call and problem go into the result's details,
// so the run layer reports every check it breaks as one root cause.
struct LegFault {
  std::string failing_call;  // "memcpy_htod"
  std::string problem;       // "wrong bytes written"
  std::string description;   // "wrong bytes written by memcpy_htod (shifted by +1): byte 1 ..."
};

// Every leg on its own: memcpy_htod, sync_memcpy_htod, memcpy_dtoh, sync_memcpy_dtoh,
// memcpy_dtod, sync_memcpy_dtod (when set), memset, memset32, mem_zero. Legs whose call
// reports an error are left to the checks of statuses.
std::vector<LegFault> FindWrongLegs(runtime::Stream& stream, std::uint64_t seed);

// After a read-back of `range` differed from `expected`: nullopt when, once everything is
// synchronised, the device holds `expected` (the observer was late, blame it); otherwise the
// leg that writes wrong bytes, or a fault on `observer` itself when every leg is right.
std::optional<LegFault> LocaliseMismatch(runtime::Stream& stream, const runtime::DeviceRange& range,
                                         const std::vector<std::byte>& expected, const std::string& observer,
                                         std::uint64_t seed);

Verdict FaultVerdict(const LegFault& fault);

// For a check whose read-back differed and that would call it a matter of timing (order,
// waiting): when a leg writes wrong bytes on its own, that leg is blamed instead; otherwise
// `timing` stands, marked as a late completion of `observer`.
Verdict BlameWrongLegOr(runtime::Stream& stream, std::uint64_t seed, const std::string& observer, Verdict timing);

}  // namespace conformance::runtime_checks
