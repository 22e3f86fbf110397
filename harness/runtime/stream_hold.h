#pragma once
// A host callback that holds a stream at a StreamGate (stream_gate.h) until the queuing thread
// waits on the held work, the gate is opened, or the limit passes. The C++ checks' slow work, the
// early-wait probe and the scenarios' hold_stream all queue their holds through it.
#include <atomic>
#include <chrono>
#include <memory>

#include "runtime/stream.h"
#include "runtime/stream_gate.h"

namespace conformance::runtime {

struct StreamHold {
  std::shared_ptr<std::atomic<bool>> finished;  // the callback returned (the hold ended)
  CallStatus queued;                            // host_callback's own status
  HostCallbackTicket ticket = 0;                // 0 when host_callback failed
  std::shared_ptr<StreamGate> gate;
};

StreamHold HoldStream(Stream& stream, std::chrono::milliseconds waiting_streak,
                      std::chrono::milliseconds limit);

}  // namespace conformance::runtime
