// Streams: many at once, their status, and one stream waiting for another.
#include <set>
#include <string>
#include <vector>

#include "check_support.h"
#include "model/tensorflow_reach.h"
#include "leg_verdicts.h"
#include "cross_stream_order.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

// TensorFlow creates streams per device context and op; 256 live at once, twice over, each
// doing real work, catches fixed-size tables and handles that are reused while alive.
constexpr int kStreams = 256;
constexpr int kRounds = 2;

Verdict Scale(CheckEnv& env) {
  constexpr std::uint64_t kSlot = 8;
  auto buffer = env.device.Allocate(kStreams * kSlot);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  for (int round = 0; round < kRounds; ++round) {
    const auto expected = SeededBytes(env.seed + round, kStreams * kSlot);
    std::vector<runtime::Stream> streams;
    std::set<SP_Stream> handles;
    for (int i = 0; i < kStreams; ++i) {
      auto stream = env.device.CreateStream();
      if (!stream.ok()) {
        // Which stream failed decides whether TensorFlow would ask for it
        // (model/tensorflow_reach.h).
        return Verdict::CallFailed(stream.error(),
                                   "create_stream #" + std::to_string(i + 1) + " (round " +
                                       std::to_string(round + 1) + ")",
                                   {{std::string(kStreamNumberDetail), std::to_string(i + 1)}});
      }
      // NULL is a legal handle (a synchronous plugin may never look at it); a live non-NULL
      // handle handed out again aliases two streams' state.
      if (stream->get() != nullptr && !handles.insert(stream->get()).second) {
        return Verdict::Fail(
            "create_stream returned a handle that is already a live stream (stream #" +
            std::to_string(i + 1) + ")");
      }
      streams.push_back(std::move(stream.value()));
    }
    for (int i = 0; i < kStreams; ++i) {
      if (auto status = streams[i].MemcpyHtoD(buffer->Range(i * kSlot, kSlot),
                                              expected.data() + i * kSlot, kSlot);
          !status.ok()) {
        return Verdict::CallFailed(status.error(),
                                   "memcpy_htod on stream #" + std::to_string(i + 1));
      }
    }
    for (auto& stream : streams) (void)WaitIdle(stream, /*device_wide=*/false);
    // Then once for the whole device, as TensorFlow does before a read: with events that never
    // complete the per-stream waits above do not wait (runtime.event.state_machine's defect).
    (void)env.device.SynchronizeAllActivity();
    auto read = ReadDevice(streams.front(), buffer->All());
    if (!read.ok()) return Verdict::CallFailed(read.error(), "reading the buffer back");
    if (auto mismatch = FirstMismatch(read->data(), expected.data(), expected.size())) {
      return BlameWrongLegOr(streams.front(), env.seed, "memcpy_htod",
                             Verdict::Fail("with " + std::to_string(kStreams) +
                                           " streams, a stream's copy was lost: " + *mismatch));
    }
    streams.clear();  // destroy_stream for all of them
  }
  if (env.session.accounting().streams.live() != 0)
    return Verdict::Fail("streams left alive (harness accounting)");
  return Verdict::Pass(
      {{"streams", std::to_string(kStreams)}, {"rounds", std::to_string(kRounds)}});
}

Verdict Status(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  if (auto status = stream->GetStatus(); !status.ok()) {
    return Verdict::Fail("get_stream_status of a new stream is not OK: " + status.Describe());
  }
  auto buffer = env.device.Allocate(4096);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  if (auto status = WriteDevice(*stream, buffer->All(), SeededBytes(env.seed, 4096));
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "a copy");
  }
  if (auto status = stream->GetStatus(); !status.ok()) {
    return Verdict::Fail("get_stream_status after successful work is not OK: " + status.Describe());
  }
  return Verdict::Pass();
}

Verdict Dependency(CheckEnv& env) {
  return CrossStreamOrder(
      env, "create_stream_dependency",
      [](runtime::Stream& first, runtime::Stream& second) { return second.WaitFor(first); });
}

}  // namespace

std::vector<TestUnit> StreamUnits() {
  return {MakeRuntimeUnit(
      "runtime.stream", "runtime",
      {"runtime.stream.scale", "runtime.stream.status", "runtime.stream.dependency"},
      [](CheckEnv& env) {
        RunCheck(env, "runtime.stream.scale", [&] { return Scale(env); });
        RunCheck(env, "runtime.stream.status", [&] { return Status(env); });
        RunCheck(env, "runtime.stream.dependency", [&] { return Dependency(env); });
      })};
}

}  // namespace conformance::runtime_checks
