// host_callback: each callback runs exactly once, with a status; in stream order (after the
// work queued before it, before the work queued after it); and a failing callback fails the
// stream.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "check_support.h"
#include "isolate/in_flight.h"
#include "runtime/problems.h"
#include "leg_verdicts.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

using runtime::HostCallbackOutcome;
using runtime::HostCallbackTicket;

// Waits (up to a deadline) until every ticket ran, for a plugin that runs callbacks on a
// thread of its own a little after the stream passed them.
void AwaitCallbacks(CheckEnv& env, const std::vector<HostCallbackTicket>& tickets) {
  const in_flight::Waiting waiting("host_callback", runtime::kCallbackNeverRan,
                                   "the host_callbacks queued by runtime.callback.exactly_once");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  auto all_ran = [&] {
    for (HostCallbackTicket ticket : tickets) {
      if (env.session.host_callbacks().Record(ticket).invocations == 0) return false;
    }
    return true;
  };
  while (!all_ran() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Callbacks between copies when the device can allocate; on their own otherwise, so a plugin
// whose allocate is broken still has its host_callback judged (it is a root cause of its own).
Verdict ExactlyOnce(CheckEnv& env) {
  constexpr int kCallbacks = 32;
  std::vector<std::byte> source = SeededBytes(env.seed, 4096);
  auto buffer = env.device.Allocate(4096);
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  std::vector<HostCallbackTicket> tickets;
  for (int i = 0; i < kCallbacks; ++i) {
    if (buffer.ok()) {
      if (auto status = stream->MemcpyHtoD(buffer->All(), source.data(), source.size());
          !status.ok()) {
        return Verdict::CallFailed(status.error(), "memcpy_htod");
      }
    }
    auto ticket = stream->HostCallback([] { return HostCallbackOutcome{}; });
    if (!ticket.ok()) return Verdict::CallFailed(ticket.error(), "host_callback");
    tickets.push_back(ticket.value());
  }
  (void)WaitIdle(*stream);
  AwaitCallbacks(env, tickets);
  // Give a plugin that calls back twice time to do it, then look.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  (void)WaitIdle(*stream);
  int never = 0, repeated = 0, null_status = 0;
  for (HostCallbackTicket ticket : tickets) {
    const auto record = env.session.host_callbacks().Record(ticket);
    never += record.invocations == 0 ? 1 : 0;
    repeated += record.invocations > 1 ? 1 : 0;
    null_status += record.null_status ? 1 : 0;
  }
  const std::string of = " of " + std::to_string(kCallbacks) + " callbacks";
  std::optional<Verdict> verdict;
  if (never > 0) {
    verdict = CallbackNeverRan(std::to_string(never) + of);
  } else if (repeated > 0) {
    verdict = CallbackRanTwice(std::to_string(repeated) + of);
  } else if (null_status > 0) {
    verdict =
        Verdict::Fail("host_callback passed a NULL TF_Status to " + std::to_string(null_status) +
                          of + " (TensorFlow's callback writes it)",
                      {{"failing_call", "host_callback"}, {"problem", "NULL status"}});
  }
  if (verdict) {
    verdict->details["callbacks"] = std::to_string(kCallbacks);
    if (never > 0 && repeated > 0)
      verdict->details["also"] = std::to_string(repeated) + " ran twice";
    return *verdict;
  }
  const Details details{{"callbacks", std::to_string(kCallbacks)},
                        {"between_copies", buffer.ok() ? "yes" : "no (allocate failed)"}};
  return Verdict::Pass(details);
}

// Each step i: write pattern i to the device, copy it to host slot i, then a callback that
// checks slot i holds pattern i (the copy before it finished), then overwrite slot i with a
// zero buffer (which must not have happened yet). The stream is held at its start until every
// step is queued, so a plugin that runs callbacks on arrival rather than in order is caught on
// every run, however slow the machine.
Verdict InOrder(CheckEnv& env) {
  constexpr int kSteps = 16;
  constexpr std::size_t kBytes = 64 << 10;
  // Shared with the callbacks, so even a callback that runs absurdly late touches live memory.
  struct State {
    std::mutex mutex;
    std::vector<std::vector<std::byte>> expected, host;
    std::vector<int> ran;
    std::string first_problem;
  };
  auto state = std::make_shared<State>();
  state->expected.resize(kSteps);
  state->host.resize(kSteps);
  std::vector<runtime::DeviceBuffer> buffers;
  auto zero = env.device.Allocate(kBytes);
  if (!zero.ok()) return Verdict::CallFailed(zero.error(), "allocate");
  auto stream = env.device.CreateStream();  // after the buffers it uses: drains first
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  if (auto status = WriteDevice(*stream, zero->All(), std::vector<std::byte>(kBytes));
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "zeroing a buffer");
  }
  for (int i = 0; i < kSteps; ++i) {
    state->expected[i] = SeededBytes(env.seed + i, kBytes);
    state->host[i].assign(kBytes, std::byte{0xEE});
    auto buffer = env.device.Allocate(kBytes);
    if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
    buffers.push_back(std::move(buffer.value()));
  }
  // Released by Open below; the window only matters for a plugin that blocks this thread on the
  // held stream while the steps are queued (a synchronous copy).
  SlowWork slow = QueueSlowWork(*stream, 250);
  if (!slow.queued.ok()) return Verdict::CallFailed(slow.queued.error(), "host_callback");
  for (int i = 0; i < kSteps; ++i) {
    if (auto status = stream->MemcpyHtoD(buffers[i].All(), state->expected[i].data(), kBytes);
        !status.ok()) {
      return Verdict::CallFailed(status.error(), "memcpy_htod");
    }
    if (auto status = stream->MemcpyDtoH(state->host[i].data(), buffers[i].All(), kBytes);
        !status.ok()) {
      return Verdict::CallFailed(status.error(), "memcpy_dtoh");
    }
    auto ticket = stream->HostCallback([state, i] {
      std::lock_guard lock(state->mutex);
      state->ran.push_back(i);
      if (state->first_problem.empty()) {
        if (auto mismatch =
                FirstMismatch(state->host[i].data(), state->expected[i].data(), kBytes)) {
          state->first_problem =
              "callback " + std::to_string(i) +
              " ran before the copy queued before it had landed, or after the copy queued after "
              "it (" +
              *mismatch + ")";
        }
      }
      return HostCallbackOutcome{};
    });
    if (!ticket.ok()) return Verdict::CallFailed(ticket.error(), "host_callback");
    if (auto status = stream->MemcpyDtoH(state->host[i].data(), zero->All(), kBytes);
        !status.ok()) {
      return Verdict::CallFailed(status.error(), "memcpy_dtoh");
    }
  }
  slow.gate->Open();
  (void)WaitIdle(*stream);
  std::string first_problem;
  {
    std::lock_guard lock(state->mutex);
    first_problem = state->first_problem;
  }
  // Localising runs more work on the stream: not under the callbacks' lock.
  if (!first_problem.empty())
    return BlameWrongLegOr(*stream, env.seed, "host_callback", Verdict::Fail(first_problem));
  if (auto never = SlowWorkNeverRan(env, slow)) return *never;
  std::lock_guard lock(state->mutex);
  // Counted before the order: a callback run twice or never also shifts every later position.
  if (state->ran.size() > kSteps)
    return CallbackRanTwice(std::to_string(state->ran.size() - kSteps) + " of " +
                            std::to_string(kSteps) + " callbacks");
  if (state->ran.size() < kSteps)
    return CallbackNeverRan(std::to_string(kSteps - state->ran.size()) + " of " +
                            std::to_string(kSteps) + " callbacks");
  for (std::size_t i = 0; i < state->ran.size(); ++i) {
    if (state->ran[i] != static_cast<int>(i)) {
      return Verdict::Fail("callbacks ran out of queue order: position " + std::to_string(i) +
                           " was callback " + std::to_string(state->ran[i]));
    }
  }
  return Verdict::Pass({{"callbacks", std::to_string(kSteps)}});
}

Verdict ErrorPropagates(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  const std::string message = "plugin_conformance: host callback failed on purpose";
  auto ticket = stream->HostCallback([message] {
    return HostCallbackOutcome{TF_DATA_LOSS, message};
  });
  if (!ticket.ok()) return Verdict::CallFailed(ticket.error(), "host_callback");
  (void)WaitIdle(*stream);
  // Say what happened: a callback that never ran returned nothing (runtime.callback.exactly_once
  // reports that); only one that ran and wrote DATA_LOSS can have its error lost.
  const int invocations = env.session.host_callbacks().Record(ticket.value()).invocations;
  if (invocations == 0) {
    return Verdict::NotSupported(
        "the host callback that would have written DATA_LOSS never ran (host_callback accepted "
        "it), so there was no error to propagate; see runtime.callback.exactly_once");
  }
  const runtime::CallStatus status = stream->GetStatus();
  if (status.ok()) {
    return Verdict::Warning(
        "the host callback ran and wrote DATA_LOSS into its TF_Status, yet get_stream_status still "
        "reports OK "
        "afterwards; the error is lost (TensorFlow only logs it too, but nothing downstream learns "
        "that the stream's "
        "work failed)",
        {{"callback_invocations", std::to_string(invocations)}});
  }
  return Verdict::Pass({{"stream_status", status.Describe()}});
}

}  // namespace

std::vector<TestUnit> CallbackUnits() {
  return {MakeRuntimeUnit(
      "runtime.callback", "runtime",
      {"runtime.callback.exactly_once", "runtime.callback.order",
       "runtime.callback.error_propagates"},
      [](CheckEnv& env) {
        RunCheck(env, "runtime.callback.exactly_once", [&] { return ExactlyOnce(env); });
        RunCheck(env, "runtime.callback.order", [&] { return InOrder(env); });
        RunCheck(env, "runtime.callback.error_propagates", [&] { return ErrorPropagates(env); });
      })};
}

}  // namespace conformance::runtime_checks
