#include "runtime/wait_idle.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "isolate/in_flight.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/problems.h"

namespace conformance::runtime {

CallStatus WaitIdle(Stream& stream, bool device_wide) {
  auto reached = std::make_shared<std::atomic<bool>>(false);
  auto barrier = stream.HostCallback([reached] {
    reached->store(true);
    return HostCallbackOutcome{};
  });
  CallStatus first = stream.BlockHostUntilDone();
  auto remember = [&first](CallStatus status) {
    if (first.ok() && !status.ok()) first = std::move(status);
  };
  if (auto event = stream.device()->CreateEvent(); event.ok()) {
    remember(stream.Record(*event));
    remember(event->BlockHost());
  } else {
    remember(event.error());
  }
  if (device_wide) remember(stream.device()->SynchronizeAllActivity());
  // Once a barrier was never called back, host_callback is known not to run callbacks in this
  // process: later waits do not spend their deadline on it again (runtime.callback.exactly_once
  // reports the defect, once).
  static std::atomic<bool> barriers_never_run{false};
  if (barrier.ok() && !barriers_never_run.load()) {
    const in_flight::Waiting waiting(
        "host_callback", kCallbackNeverRan,
        "the host_callback queued as a barrier behind the stream's work never ran");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!reached->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!reached->load()) barriers_never_run.store(true);
  }
  // A host_callback that fails is the callback checks' finding, not a reason to call the
  // stream busy: the other waits above already ordered the host behind the stream.
  return first;
}

}  // namespace conformance::runtime
