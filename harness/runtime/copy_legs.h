#pragma once
// Blame the callback that is wrong, not the one that noticed. A read-back that differs is
// first re-read after everything is synchronised: right bytes then mean the observing call
// returned early ("late completion"); still-wrong bytes are localised leg by leg. A known-good
// way in and a known-good way out (host pattern → device → host) are found by trying every
// pairing of the synchronous and asynchronous copies; through them each copy direction and
// each fill is checked on its own and, when wrong, described (byte_patterns.h). Shared by the
// C++ runtime checks (conformance/runtime) and the scenario engine (harness/scenario), so both
// name the same callback with the same (failing_call, problem) pair.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/call_error.h"
#include "runtime/device_buffer.h"
#include "runtime/problems.h"
#include "runtime/stream.h"

namespace conformance::runtime {

// Which copy directions the harness may trust to move host bytes in and out of the device.
struct CopyPaths {
  bool async_in = true;   // memcpy_htod on a stream (else sync_memcpy_htod)
  bool async_out = true;  // memcpy_dtoh on a stream (else sync_memcpy_dtoh)
  bool trusted = false;   // some pairing round-tripped a pattern exactly
};
// Probed once per device and process; asynchronous first, the path TensorFlow uses most.
const CopyPaths& KnownGoodPaths(Stream& stream);

// Host bytes onto the device and back through the known-good paths, waiting until idle.
CallStatus CopyIn(Stream& stream, const DeviceRange& range, const std::vector<std::byte>& bytes);
CallResult<std::vector<std::byte>> CopyOut(Stream& stream, const DeviceRange& range);

// A callback that writes wrong bytes. failing_call and problem go into a result's details,
// so the run layer reports every check it breaks as one root cause.
struct LegFault {
  std::string failing_call;  // "memcpy_htod"
  std::string problem;       // kWrongBytesWritten
  std::string description;   // "wrong bytes written by memcpy_htod (shifted by +1): byte 1 ..."
};

// Every leg on its own: memcpy_htod, memcpy_dtoh, memcpy_dtod, memset, memset32, mem_zero.
// The synchronous copies are not legs: TensorFlow never moves tensors with them
// (runtime/tensorflow_calls.h), so localising a wrong read-back must not crash on them; their
// bytes are runtime.sync.*'s to judge. Legs whose call reports an error are left to the checks
// of statuses.
std::vector<LegFault> FindWrongLegs(Stream& stream, std::uint64_t seed);

// After a read-back of `range` differed from `expected`: nullopt when, once everything is
// synchronised, the device holds `expected` (the observer was late, blame it); otherwise the
// leg that writes wrong bytes, or a fault on `observer` itself when every leg is right.
std::optional<LegFault> LocaliseMismatch(Stream& stream, const DeviceRange& range,
                                         const std::vector<std::byte>& expected,
                                         const std::string& observer, std::uint64_t seed);

}  // namespace conformance::runtime
