// Every callback that takes a TF_Status writes it. TensorFlow hands plugins an OK status, so
// one left untouched means success there; the harness poisons it, and reports every callback
// that leaves it alone as a warning (stricter than TensorFlow: a plugin that relies on the
// caller's OK breaks the moment a caller reuses a status).
#include <string>
#include <vector>

#include "check_support.h"
#include "runtime/tensorflow_calls.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr std::uint64_t kStatusBytes = 4096;

// One call of every status-taking SP_StreamExecutor callback TensorFlow makes
// (runtime/tensorflow_calls.h): the synchronous copies are probed by runtime.sync.*, which
// alone may crash on them. Calls that fail are other checks' business (a failure writes the
// status anyway); they are listed in `details`. `stopped_before` names the handle-creating call
// never reached, so runtime.handles.written never passes without a stream and an event created.
std::optional<Verdict> Exercise(CheckEnv& env, Details& details, std::string& stopped_before) {
  runtime::Device& device = env.device;
  std::vector<std::byte> host = SeededBytes(env.seed, kStatusBytes), back(kStatusBytes);
  auto a = device.Allocate(kStatusBytes);
  auto b = device.Allocate(kStatusBytes);
  stopped_before = "create_stream";
  if (!a.ok()) return Verdict::CallFailed(a.error(), "allocate");
  if (!b.ok()) return Verdict::CallFailed(b.error(), "allocate");
  auto first = device.CreateStream();
  auto second = device.CreateStream();
  if (!first.ok()) return Verdict::CallFailed(first.error(), "create_stream");
  if (!second.ok()) return Verdict::CallFailed(second.error(), "create_stream");
  stopped_before = "create_event";
  auto event = device.CreateEvent();
  if (!event.ok()) return Verdict::CallFailed(event.error(), "create_event");
  stopped_before.clear();
  const std::vector<std::pair<const char*, std::function<runtime::CallStatus()>>> calls = {
      {"memcpy_htod", [&] { return first->MemcpyHtoD(a->All(), host.data(), kStatusBytes); }},
      {"memcpy_dtod", [&] { return first->MemcpyDtoD(b->All(), a->All(), kStatusBytes); }},
      {"memcpy_dtoh", [&] { return first->MemcpyDtoH(back.data(), b->All(), kStatusBytes); }},
      {"mem_zero", [&] { return first->MemZero(b->All(), kStatusBytes); }},
      {"memset", [&] { return first->Memset(b->All(), 0x5A, kStatusBytes); }},
      {"memset32", [&] { return first->Memset32(b->All(), 0x01234567u, kStatusBytes); }},
      {"record_event", [&] { return first->Record(*event); }},
      {"wait_for_event", [&] { return second->WaitFor(*event); }},
      {"create_stream_dependency", [&] { return second->WaitFor(*first); }},
      {"block_host_for_event", [&] { return event->BlockHost(); }},
      {"block_host_until_done", [&] { return first->BlockHostUntilDone(); }},
      {"get_stream_status", [&] { return first->GetStatus(); }},
      {"synchronize_all_activity", [&] { return device.SynchronizeAllActivity(); }},
  };
  for (const auto& [name, call] : calls) {
    if (!runtime::TensorFlowMakes(name))
      continue;  // the list above must stay on TensorFlow's paths
    if (auto status = call(); !status.ok())
      details[std::string("failed_") + name] = status.Describe();
  }
  (void)WaitIdle(*first);
  (void)WaitIdle(*second);
  return std::nullopt;
}

Verdict Written(CheckEnv& env, std::string& stopped_before) {
  Details details;
  if (auto verdict = Exercise(env, details, stopped_before)) return *verdict;
  const auto unwritten = env.session.findings().Of(runtime::FindingKind::kStatusNotWritten);
  if (unwritten.empty()) return Verdict::Pass(details);
  std::string names;
  for (const auto& finding : unwritten) {
    names += (names.empty() ? "" : ", ") + finding.callback;
    details[finding.callback] = "left untouched " + std::to_string(finding.count) + " time(s)";
  }
  return Verdict::Warning(
      "these callbacks returned without writing their TF_Status (TensorFlow passes OK, so it works "
      "there): " +
          names,
      details);
}

// create_stream / create_event that report OK without writing their handle: TensorFlow carries
// on with its pre-filled NULL (so does the session), which works for a plugin that never looks
// at the handle. Reported here once; whatever breaks because of it is blamed where it breaks.
Verdict HandlesWritten(CheckEnv& env, const std::string& stopped_before) {
  if (!stopped_before.empty()) {
    return Verdict::Skipped("runtime.statuses.written stopped before " + stopped_before +
                            ": no handle was created to look at");
  }
  std::string names;
  Details details;
  for (const char* callback : {"create_stream", "create_event"}) {
    for (const auto& finding :
         env.session.findings().Of(runtime::FindingKind::kOutParamNotWritten)) {
      if (finding.callback != runtime::StreamExecutorCallback(callback)) continue;
      names += (names.empty() ? "" : ", ") + std::string(callback);
      details[callback] = finding.detail;
      if (!details.contains("failing_call"))
        details["failing_call"] = callback;  // the stream's first
    }
  }
  if (names.empty()) return Verdict::Pass();
  details["problem"] = "out-parameter never written";
  // What the one NULL handle costs: every object of that kind is the same to the plugin.
  std::string consequence;
  if (details.contains("create_stream"))
    consequence +=
        "; every stream is the same NULL handle, so the plugin cannot keep work "
        "of one stream apart from another's";
  if (details.contains("create_event"))
    consequence +=
        "; every event is the same NULL handle, so no event can stand for its own "
        "point in a stream (record_event and get_event_status cannot track one)";
  return Verdict::Warning(
      names +
          " returned OK without writing the handle; TensorFlow pre-fills NULL and uses it, so "
          "this works only while the plugin never looks at the handle (the checks went on with "
          "NULL)" +
          consequence,
      std::move(details));
}

}  // namespace

std::vector<TestUnit> StatusUnits() {
  return {MakeRuntimeUnit(
      "runtime.statuses", "runtime", {"runtime.statuses.written", "runtime.handles.written"},
      [](CheckEnv& env) {
        std::string stopped_before;
        RunCheck(env, "runtime.statuses.written", [&] { return Written(env, stopped_before); });
        RunCheck(env, "runtime.handles.written",
                 [&] { return HandlesWritten(env, stopped_before); });
      })};
}

}  // namespace conformance::runtime_checks
