// Events: the state machine get_event_status reports, the host waiting for an event, and
// another stream waiting for one.
#include <chrono>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "cross_stream_order.h"
#include "runtime/problems.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr std::uint64_t kEventBytes = 1 << 20;

bool Valid(SE_EventStatus status) {
  return status >= SE_EVENT_UNKNOWN && status <= SE_EVENT_COMPLETE;
}

// get_event_status COMPLETE for an event never recorded (Vulten's stub returns COMPLETE for
// every event). TensorFlow never polls such an event, so the answer alone harms nothing; but
// it shows the callback answers without looking, and TensorFlow frees a tensor as soon as the
// event recorded after its last use reads COMPLETE.
constexpr std::string_view kAlwaysCompleteFails =
    "get_event_status reads COMPLETE whatever the event: before it was ever recorded, and while "
    "work recorded before it is still running (TensorFlow's event manager frees the tensors of "
    "that work while it still uses them: wrong data)";

Verdict AlwaysCompleteWarning(Details details) {
  details["failing_call"] = "get_event_status";
  details["problem"] = runtime::kEventAlwaysComplete;
  return Verdict::Warning(
      "get_event_status reads COMPLETE for an event that was never recorded: it reports no state "
      "of its own. Right here only because nothing this check queued was still running when the "
      "event was polled; on a device whose work runs after the call returns, TensorFlow's event "
      "manager would free tensors that work still uses (wrong data)",
      std::move(details));
}

// Records `event` behind slow work and polls it: never COMPLETE before the work finished,
// never UNKNOWN or ERROR once recorded, COMPLETE once the work is done, and COMPLETE for good.
std::optional<std::string> FollowRecord(CheckEnv& env, runtime::Stream& stream,
                                        runtime::Event& event, bool complete_unrecorded,
                                        std::vector<std::string>& seen, Details& details) {
  SlowWork slow = QueueSlowWork(stream, kSlowWorkMilliseconds);
  if (!slow.queued.ok()) {
    // Nothing holds the stream: the states an event reads on an idle stream are still judged
    // (UNKNOWN after record_event is fatal in TensorFlow whatever host_callback does), and
    // host_callback's failure stays runtime.callback.*'s finding.
    slow.finished->store(true);
    details["held_by"] = "nothing (host_callback failed: " + slow.queued.Describe() + ")";
  }
  if (auto status = stream.Record(event); !status.ok()) {
    Blame(details, status.error());
    return "record_event failed: " + status.Describe();
  }
  SE_EventStatus last = SE_EVENT_UNKNOWN;
  bool have_last = false;
  auto note = [&](SE_EventStatus status) {
    if (!have_last || status != last) seen.push_back(Describe(status));
    last = status;
    have_last = true;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (true) {
    const SE_EventStatus status = event.Poll();
    const bool finished =
        slow.finished->load();  // read after the poll: COMPLETE && !finished is early
    note(status);
    if (!Valid(status))
      return "get_event_status returned " + std::to_string(static_cast<int>(status)) +
             ", not an SE_EventStatus";
    // TensorFlow's event manager polls every recorded event and stops the process on either.
    if (status == SE_EVENT_UNKNOWN)
      return "the event reads UNKNOWN after it was recorded (fatal in TensorFlow's event manager, "
             "which aborts the process on an unexpected event status)";
    if (status == SE_EVENT_ERROR)
      return "the event reads ERROR although the stream is healthy (fatal in TensorFlow's event "
             "manager)";
    if (status == SE_EVENT_COMPLETE && !finished) {
      // Not running at all is host_callback's defect; otherwise the event did not wait for it.
      (void)WaitIdle(stream);
      if (auto never = SlowWorkNeverRan(env, slow)) {
        details.insert(never->details.begin(), never->details.end());
        return never->message;
      }
      // COMPLETE before it was ever recorded too: get_event_status answers without looking.
      if (complete_unrecorded) {
        details["failing_call"] = "get_event_status";
        details["problem"] = runtime::kEventAlwaysComplete;
        return std::string(kAlwaysCompleteFails);
      }
      details["failing_call"] = "record_event";
      details["problem"] = runtime::kEventCompleteEarly;
      return "the event reads COMPLETE while work recorded before it is still running";
    }
    if (status == SE_EVENT_COMPLETE) break;
    if (std::chrono::steady_clock::now() > deadline) {
      return "the event still reads " + Describe(status) +
             " 3 s after it was recorded (the work recorded before it " +
             (slow.finished->load() ? "had finished)" : "was still held)");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  for (int i = 0; i < 100; ++i) {
    const SE_EventStatus status = event.Poll();
    note(status);
    if (status != SE_EVENT_COMPLETE)
      return "the event went back from COMPLETE to " + Describe(status);
  }
  return std::nullopt;
}

// record_event left the event complete at once although work queued before it was running.
// `complete_unrecorded`: the event read COMPLETE before it was recorded as well, so
// get_event_status, not record_event, is the one that does not look at the work.
Verdict EventCompleteAtOnce(bool complete_unrecorded) {
  if (complete_unrecorded) {
    return Verdict::Fail(
        std::string(kAlwaysCompleteFails),
        {{"failing_call", "get_event_status"}, {"problem", runtime::kEventAlwaysComplete}});
  }
  return Verdict::Fail(
      "the event reads COMPLETE right after record_event while work recorded before it is still "
      "running (TensorFlow's event manager would free tensors that work still uses)",
      {{"failing_call", "record_event"}, {"problem", runtime::kEventCompleteEarly}});
}

Verdict StateMachine(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  auto event = env.device.CreateEvent();
  if (!event.ok()) return Verdict::CallFailed(event.error(), "create_event");
  const SE_EventStatus fresh = event->Poll();
  std::vector<std::string> seen;
  Details details{
      {"after_create", Valid(fresh) ? Describe(fresh) : std::to_string(static_cast<int>(fresh))}};
  auto conclude = [&](std::optional<std::string> problem) {
    std::string sequence;
    for (const auto& name : seen) sequence += (sequence.empty() ? "" : " -> ") + name;
    details["after_record"] = sequence;
    (void)WaitIdle(*stream);
    if (problem && !details.contains("failing_call")) {
      details["failing_call"] =
          "get_event_status";  // no call failed: the states it reported are wrong
      details["problem"] = "wrong event state";
    }
    return problem ? Verdict::Fail(*problem, details) : Verdict::Pass(details);
  };
  if (!Valid(fresh) || fresh == SE_EVENT_ERROR) {
    return conclude("a new, never recorded event reads " + details["after_create"] +
                    " (expected UNKNOWN; PENDING or COMPLETE are tolerated)");
  }
  const bool complete_unrecorded = fresh == SE_EVENT_COMPLETE;
  if (auto problem = FollowRecord(env, *stream, *event, complete_unrecorded, seen, details))
    return conclude(problem);
  seen.push_back("|re-record|");
  Verdict verdict = conclude(FollowRecord(env, *stream, *event, complete_unrecorded, seen,
                                          details));  // recording again starts over
  if (verdict.kind == Verdict::Kind::kPass && complete_unrecorded)
    return AlwaysCompleteWarning(std::move(verdict.details));
  return verdict;
}

// Slow work, a copy to the host, then an event: block_host_for_event returns after both.
Verdict BlockHostForEvent(CheckEnv& env) {
  std::vector<std::byte> host(kEventBytes, std::byte{0xEE});
  const auto expected = SeededBytes(env.seed, kEventBytes);
  auto buffer = env.device.Allocate(kEventBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  auto event = env.device.CreateEvent();
  if (!event.ok()) return Verdict::CallFailed(event.error(), "create_event");
  const bool complete_unrecorded = event->Poll() == SE_EVENT_COMPLETE;
  if (auto status = WriteDevice(*stream, buffer->All(), expected); !status.ok()) {
    return Verdict::CallFailed(status.error(), "writing the device");
  }
  SlowWork slow = QueueSlowWork(*stream, kSlowWorkMilliseconds);
  if (!slow.queued.ok()) return Verdict::CallFailed(slow.queued.error(), "host_callback");
  if (auto status = stream->MemcpyDtoH(host.data(), buffer->All(), kEventBytes); !status.ok()) {
    return Verdict::CallFailed(status.error(), "memcpy_dtoh");
  }
  if (auto status = stream->Record(*event); !status.ok())
    return Verdict::CallFailed(status.error(), "record_event");
  const bool complete_at_once = event->Poll() == SE_EVENT_COMPLETE && !slow.finished->load();
  const runtime::CallStatus waited = event->BlockHost();
  const bool finished = slow.finished->load();
  const auto mismatch = FirstMismatch(host.data(), expected.data(), kEventBytes);
  (void)WaitIdle(*stream);
  if (auto never = SlowWorkNeverRan(env, slow)) return *never;
  if (!waited.ok()) return Verdict::CallFailed(waited.error(), "block_host_for_event");
  // An event complete as soon as it is recorded, with work still queued before it: the wait
  // had nothing to wait for (runtime.event.state_machine's root cause).
  if (!finished && complete_at_once) return EventCompleteAtOnce(complete_unrecorded);
  if (!finished)
    return Verdict::Fail(
        "block_host_for_event returned while a host callback recorded before the event was "
        "running");
  if (mismatch) {
    return BlameWrongLegOr(
        *stream, env.seed, "block_host_for_event",
        Verdict::Fail("block_host_for_event returned before a copy recorded before the event "
                      "landed: " +
                      *mismatch));
  }
  return Verdict::Pass();
}

Verdict CrossStreamWait(CheckEnv& env) {
  auto event = env.device.CreateEvent();
  if (!event.ok()) return Verdict::CallFailed(event.error(), "create_event");
  const bool complete_unrecorded = event->Poll() == SE_EVENT_COMPLETE;
  // Recorded behind slow work, an event that already reads COMPLETE gives wait_for_event
  // nothing to wait for: a second stream running early is then record_event's defect.
  bool complete_at_once = false;
  Verdict verdict =
      CrossStreamOrder(env, "wait_for_event", [&](runtime::Stream& first, runtime::Stream& second) {
        if (auto status = first.Record(*event); !status.ok()) return status;
        complete_at_once = event->Poll() == SE_EVENT_COMPLETE;
        return second.WaitFor(*event);
      });
  if (verdict.kind == Verdict::Kind::kFail && complete_at_once &&
      verdict.details["problem"] == runtime::kLateCompletion) {
    return EventCompleteAtOnce(complete_unrecorded);
  }
  return verdict;
}

}  // namespace

std::vector<TestUnit> EventUnits() {
  return {MakeRuntimeUnit(
      "runtime.event", "runtime",
      {"runtime.event.state_machine", "runtime.event.block_host",
       "runtime.event.cross_stream_wait"},
      [](CheckEnv& env) {
        RunCheck(env, "runtime.event.state_machine", [&] { return StateMachine(env); });
        RunCheck(env, "runtime.event.block_host", [&] { return BlockHostForEvent(env); });
        RunCheck(env, "runtime.event.cross_stream_wait", [&] { return CrossStreamWait(env); });
      })};
}

}  // namespace conformance::runtime_checks
