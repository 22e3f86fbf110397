#include "latency_benchmarks.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>

#include "call_checks.h"
#include "latency_samples.h"
#include "runtime/event.h"
#include "runtime/plugin_call.h"
#include "runtime/stream.h"

namespace conformance::bench {
namespace {

using Clock = std::chrono::steady_clock;

enum class EventWait { kPoll, kBlock };

// Records the event and waits until the plugin reports it COMPLETE; one latency sample.
bool RecordAndWait(benchmark::State& state, const BenchTarget& target, SP_Stream stream,
                   SP_Event event, EventWait wait, TF_Status* status, LatencySamples* samples) {
  const SP_StreamExecutor& se = target.se();
  const SP_Device* device = target.device();
  const Clock::time_point start = Clock::now();
  se.record_event(device, stream, event, status);
  if (Failed(state, status, "record_event")) return false;
  if (wait == EventWait::kBlock) {
    se.block_host_for_event(device, event, status);
    if (Failed(state, status, "block_host_for_event")) return false;
  } else {
    const WaitDeadline deadline;
    for (SE_EventStatus reached = se.get_event_status(device, event); reached != SE_EVENT_COMPLETE;
         reached = se.get_event_status(device, event)) {
      if (reached == SE_EVENT_ERROR) {
        state.SkipWithError("get_event_status returned SE_EVENT_ERROR on a healthy stream");
        return false;
      }
      if (deadline.Passed()) {
        state.SkipWithError("recorded event did not complete within 10 s");
        return false;
      }
    }
  }
  if (samples != nullptr) samples->Add(Clock::now() - start);
  return true;
}

void RunEventLatency(benchmark::State& state, const BenchTarget& target, EventWait wait,
                     std::chrono::microseconds idle_before) {
  runtime::Device& device = target.wrapped_device();
  auto stream = device.CreateStream();
  if (Failed(state, stream.status())) return;
  auto event = device.CreateEvent();
  if (Failed(state, event.status())) return;
  runtime::OwnedTfStatus status;
  status.Reset();
  // Warm-up (not sampled): the first record may set things up lazily.
  if (!RecordAndWait(state, target, stream->get(), event->get(), wait, status.get(), nullptr))
    return;
  LatencySamples samples;
  for (auto _ : state) {
    if (idle_before.count() > 0) std::this_thread::sleep_for(idle_before);
    if (!RecordAndWait(state, target, stream->get(), event->get(), wait, status.get(), &samples))
      break;
  }
  samples.Publish(state);
}

// The host callback's context: when it ran, in steady_clock nanoseconds (0: not yet).
struct CallbackProbe {
  std::atomic<std::int64_t> ran_at_ns{0};
};

void ProbeCallback(void* arg, TF_Status* status) {
  static_cast<CallbackProbe*>(arg)->ran_at_ns.store(Clock::now().time_since_epoch().count(),
                                                    std::memory_order_release);
  // TensorFlow's trampoline always writes the callback's result; after the timestamp, so
  // it is not part of the latency.
  if (status != nullptr) TF_SetStatus(status, TF_OK, "");
}

bool CallbackOnce(benchmark::State& state, const BenchTarget& target, SP_Stream stream,
                  TF_Status* status, LatencySamples* samples) {
  const SP_StreamExecutor& se = target.se();
  const SP_Device* device = target.device();
  CallbackProbe probe;
  const Clock::time_point start = Clock::now();
  if (!se.host_callback(device, stream, ProbeCallback, &probe)) {
    state.SkipWithError("host_callback returned false");
    return false;
  }
  const WaitDeadline deadline;
  std::int64_t ran_at = 0;
  while ((ran_at = probe.ran_at_ns.load(std::memory_order_acquire)) == 0) {
    if (deadline.Passed()) {
      // The probe lives on this stack frame: wait for the stream before returning so a
      // late callback cannot write into a dead frame.
      se.block_host_until_done(device, stream, status);
      state.SkipWithError("host callback did not run within 10 s");
      return false;
    }
  }
  if (samples != nullptr)
    samples->Add(std::chrono::nanoseconds(ran_at - start.time_since_epoch().count()));
  // Not sampled: the stream finishes the callback step, so the next sample starts on an
  // idle stream.
  se.block_host_until_done(device, stream, status);
  return !Failed(state, status, "block_host_until_done");
}

void RunHostCallbackLatency(benchmark::State& state, const BenchTarget& target,
                            std::chrono::microseconds idle_before) {
  runtime::Device& device = target.wrapped_device();
  auto stream = device.CreateStream();
  if (Failed(state, stream.status())) return;
  runtime::OwnedTfStatus status;
  status.Reset();
  if (!CallbackOnce(state, target, stream->get(), status.get(), nullptr)) return;
  LatencySamples samples;
  for (auto _ : state) {
    if (idle_before.count() > 0) std::this_thread::sleep_for(idle_before);
    if (!CallbackOnce(state, target, stream->get(), status.get(), &samples)) break;
  }
  samples.Publish(state);
}

// Each latency twice: back to back (the next operation follows the previous one at once,
// as in a busy TensorFlow step) and after the stream sat idle for 1 ms (long enough for any
// spin-then-sleep policy of the plugin to have gone to sleep), so the figures show both
// what a plugin's wake-up policy buys and what it costs when it does not apply.
constexpr std::chrono::microseconds kBackToBack{0};
constexpr std::chrono::microseconds kAfterIdle{1000};

}  // namespace

void RegisterLatencyBenchmarks(CaseRegistry& registry, std::span<BenchTarget* const> targets) {
  for (const auto& [suffix, idle] :
       {std::pair{"", kBackToBack}, std::pair{"_after_1ms_idle", kAfterIdle}}) {
    for (const auto& [name, wait] :
         {std::pair{"event/record_to_complete_poll", EventWait::kPoll},
          std::pair{"event/record_to_complete_block", EventWait::kBlock}}) {
      for (BenchTarget* target : targets) {
        // Structured bindings are captured by init-capture: clang 14 (clang-tidy) rejects the
        // plain capture C++20 allows.
        registry
            .Register({std::string(name) + suffix, target->role(), Metric::kMedianLatency, ""},
                      [target, wait = wait, idle = idle](benchmark::State& state) {
                        RunEventLatency(state, *target, wait, idle);
                      })
            ->Unit(benchmark::kMicrosecond);
      }
    }
    for (BenchTarget* target : targets) {
      registry
          .Register({std::string("host_callback/enqueue_to_run") + suffix, target->role(),
                     Metric::kMedianLatency, ""},
                    [target, idle = idle](benchmark::State& state) {
                      RunHostCallbackLatency(state, *target, idle);
                    })
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace conformance::bench
