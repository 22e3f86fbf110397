#pragma once
// The harness's own "wait until idle", shared by the C++ runtime checks and the scenario
// engine's localisation of read-backs that differ.
#include "runtime/call_error.h"
#include "runtime/stream.h"

namespace conformance::runtime {

// Waits until everything queued on `stream` (and the device) has finished, by every means the
// C API offers at once: a host-callback barrier, block_host_until_done, an event recorded and
// waited for, synchronize_all_activity. A plugin with one of those broken still gets waited
// for, so only the check dedicated to that primitive notices the defect. Returns the first
// error any of them reported (the wait itself still happened through the others).
// `device_wide` = false leaves out synchronize_all_activity, for waiting on many streams in
// turn (it would wait for all of them each time).
CallStatus WaitIdle(Stream& stream, bool device_wide = true);

}  // namespace conformance::runtime
