#pragma once
// The harness's own "wait until idle", shared by the C++ runtime checks, the kernel tier and
// the scenario engine's localisation of read-backs that differ. It waits the way TensorFlow's
// core waits (docs/tensorflow/calls.md): an event recorded behind the stream's work, polled
// with get_event_status, then synchronize_all_activity (what TensorFlow does after every
// device-to-host copy). It never calls host_callback, block_host_until_done or
// block_host_for_event, which TensorFlow's recorded workload never calls: a plugin with one of
// those broken is reported by the check dedicated to that call alone.
#include "runtime/call_error.h"
#include "runtime/stream.h"

namespace conformance::runtime {

// Waits until everything queued on `stream` (and, when `device_wide`, the device) has
// finished. Polling stops when the event reads COMPLETE, ERROR or UNKNOWN (TensorFlow's event
// manager treats the last two as fatal; runtime.event.state_machine reports them), or after a
// deadline for an event that stays PENDING (then once per process: later waits rely on
// synchronize_all_activity alone). Returns the first error a call reported.
// `device_wide` = false leaves out synchronize_all_activity, for waiting on many streams in
// turn (it would wait for all of them each time).
CallStatus WaitIdle(Stream& stream, bool device_wide = true);

}  // namespace conformance::runtime
