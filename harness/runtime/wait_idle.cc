#include "runtime/wait_idle.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "runtime/device.h"
#include "runtime/event.h"

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
  if (barrier.ok()) {
    // Bounded: a plugin that never runs the callback is caught by the callback checks.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!reached->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  // A host_callback that fails is the callback checks' finding, not a reason to call the
  // stream busy: the other waits above already ordered the host behind the stream.
  return first;
}

}  // namespace conformance::runtime
