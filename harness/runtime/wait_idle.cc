#include "runtime/wait_idle.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "isolate/in_flight.h"
#include "runtime/device.h"
#include "runtime/event.h"

namespace conformance::runtime {
namespace {

// Once an event recorded by a wait never left PENDING, events are known not to complete in
// this process: later waits do not spend the deadline on them again (runtime.event.state_machine
// reports the defect, once).
std::atomic<bool> events_never_complete{false};

constexpr auto kEventDeadline = std::chrono::seconds(2);

// Polls `event` the way TensorFlow's event manager does, with a growing pause (50 us .. 1 ms).
void PollUntilSettled(Event& event) {
  if (events_never_complete.load()) return;
  const in_flight::Waiting waiting(
      "get_event_status", "wrong event state",
      "an event recorded behind the stream's work to reach COMPLETE (get_event_status)");
  const auto deadline = std::chrono::steady_clock::now() + kEventDeadline;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    const SE_EventStatus status = event.Poll();
    if (status != SE_EVENT_PENDING) return;  // COMPLETE, or a state TensorFlow aborts on
    if (std::chrono::steady_clock::now() >= deadline) {
      events_never_complete.store(true);
      return;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(1)) pause *= 2;
  }
}

}  // namespace

CallStatus WaitIdle(Stream& stream, bool device_wide) {
  CallStatus first;
  auto remember = [&first](CallStatus status) {
    if (first.ok() && !status.ok()) first = std::move(status);
  };
  if (auto event = stream.device()->CreateEvent(); event.ok()) {
    CallStatus recorded = stream.Record(*event);
    if (recorded.ok()) PollUntilSettled(*event);
    remember(std::move(recorded));
  } else {
    remember(event.error());
  }
  if (device_wide) remember(stream.device()->SynchronizeAllActivity());
  return first;
}

}  // namespace conformance::runtime
