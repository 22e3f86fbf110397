#include "runtime/wait_probe.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <utility>

#include "runtime/device_session.h"
#include "runtime/event.h"
#include "runtime/problems.h"
#include "runtime/stream.h"
#include "runtime/stream_gate.h"
#include "runtime/stream_hold.h"
#include "runtime/wait_idle.h"

namespace conformance::runtime {
namespace {

// The thread must sleep this long inside the wait before the hold opens: a wait that waits
// sleeps far longer; one that returns early never sleeps at all.
constexpr std::chrono::milliseconds kWaitingStreak{100};
constexpr std::chrono::milliseconds kHoldLimit{5000};

// Calls `wait` behind a held host callback on a new stream of `device`. True: it returned
// while the callback had not run. nullopt: nothing could be held, or the wait failed (a
// failing wait is its own check's finding, not an early one).
std::optional<bool> ReturnsEarly(Device& device, const std::string& wait) {
  auto stream = device.CreateStream();
  if (!stream.ok()) return std::nullopt;
  const StreamHold hold = HoldStream(*stream, kWaitingStreak, kHoldLimit);
  if (!hold.queued.ok()) return std::nullopt;
  const auto& gate = hold.gate;
  const auto& finished = hold.finished;
  if (finished->load()) {  // ran inline: a synchronous device, nothing is ever queued
    (void)WaitIdle(*stream);
    return std::nullopt;
  }
  CallStatus status;
  Event event;  // outlives the hold: never destroyed while recorded work is queued
  if (wait == "block_host_until_done") {
    status = stream->BlockHostUntilDone();
  } else if (wait == "synchronize_all_activity") {
    status = device.SynchronizeAllActivity();
  } else {  // block_host_for_event
    auto created = device.CreateEvent();
    if (created.ok()) event = std::move(created.value());
    if (!created.ok() || !stream->Record(event).ok()) {
      gate->Open();
      (void)WaitIdle(*stream);
      return std::nullopt;
    }
    status = event.BlockHost();
  }
  const bool early = !finished->load();
  gate->Open();
  (void)WaitIdle(*stream);
  // A callback that never ran at all is host_callback's defect, not the wait's.
  const bool ran = device.session().host_callbacks().Record(hold.ticket).invocations > 0;
  if (!status.ok() || !ran) return std::nullopt;
  return early;
}

}  // namespace

std::optional<LegFault> FindEarlyWait(Device& device, const std::set<std::string>& waits) {
  for (const char* wait :
       {"block_host_until_done", "block_host_for_event", "synchronize_all_activity"}) {
    if (!waits.contains(wait)) continue;
    if (ReturnsEarly(device, wait).value_or(false)) {
      return LegFault{
          wait, kLateCompletion,
          std::string(wait) + " returned while a host callback queued before it was still running"};
    }
  }
  return std::nullopt;
}

}  // namespace conformance::runtime
