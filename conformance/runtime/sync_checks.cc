// Synchronous copies are synchronous, and the host-side waits really wait. "Really" is
// measured against slow work queued first (a host callback that sleeps), so a plugin that
// returns early is caught deterministically rather than by luck of timing.
#include <string>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr std::uint64_t kCopyBytes = 2 << 20;  // detection rests on slow work, not on size

std::vector<std::byte> Inverted(std::vector<std::byte> bytes) {
  for (auto& byte : bytes) byte = ~byte;
  return bytes;
}

// sync_memcpy_htod: the device holds the data when the call returns. The source is
// overwritten right away; a copy that is still pending would pick up the new bytes.
Verdict SyncHtoD(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  // Probe the known-good copy paths now: probing waits for everything, which must not happen
  // between the copy under test and its read-back.
  (void)KnownGoodPaths(*stream);
  auto buffer = env.device.Allocate(kCopyBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  const auto pattern = SeededBytes(env.seed, kCopyBytes);
  auto source = pattern;
  if (auto status = env.device.SyncMemcpyHtoD(buffer->All(), source.data(), kCopyBytes);
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "sync_memcpy_htod");
  }
  source = Inverted(std::move(source));  // no synchronization call in between
  auto read = ReadDevice(*stream, buffer->All());
  if (!read.ok()) return Verdict::CallFailed(read.error(), "reading the device back");
  if (auto mismatch = FirstMismatch(read->data(), pattern.data(), kCopyBytes)) {
    // Late, or wrong? Once idle, a late copy holds the pattern or the overwritten source.
    auto settled = ReadDevice(*stream, buffer->All());
    if (settled.ok() && *settled != pattern && *settled != source)
      return WrongBytesVerdict("sync_memcpy_htod", *settled, pattern);
    return Verdict::Fail(
        "sync_memcpy_htod returned before the copy was done (the device read back right after it "
        "returned differs: " +
            *mismatch + ")",
        {{"failing_call", "sync_memcpy_htod"}, {"problem", "late completion"}});
  }
  return Verdict::Pass({{"bytes", std::to_string(kCopyBytes)}});
}

// sync_memcpy_dtoh: the host buffer holds the data when the call returns, and nothing
// writes it afterwards.
Verdict SyncDtoH(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  auto buffer = env.device.Allocate(kCopyBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  const auto pattern = SeededBytes(env.seed + 1, kCopyBytes);
  if (auto status = WriteDevice(*stream, buffer->All(), pattern); !status.ok()) {
    return Verdict::CallFailed(status.error(), "writing the device");
  }
  std::vector<std::byte> host(kCopyBytes, std::byte{0xEE});
  const auto poison = host;
  if (auto status = env.device.SyncMemcpyDtoH(host.data(), buffer->All(), kCopyBytes);
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "sync_memcpy_dtoh");
  }
  const auto mismatch =
      FirstMismatch(host.data(), pattern.data(), kCopyBytes);  // no synchronization first
  host = poison;
  (void)WaitIdle(*stream);  // a late copy lands now (into memory that is still ours)
  if (mismatch) {
    // Late, or wrong? A second copy, waited for, tells: wrong bytes stay wrong.
    std::vector<std::byte> settled(kCopyBytes, std::byte{0xEE});
    if (env.device.SyncMemcpyDtoH(settled.data(), buffer->All(), kCopyBytes).ok() &&
        WaitIdle(*stream).ok() && settled != pattern) {
      return WrongBytesVerdict("sync_memcpy_dtoh", settled, pattern);
    }
    return Verdict::Fail("sync_memcpy_dtoh returned before the data arrived: " + *mismatch,
                         {{"failing_call", "sync_memcpy_dtoh"}, {"problem", "late completion"}});
  }
  if (auto late = FirstMismatch(host.data(), poison.data(), kCopyBytes)) {
    return Verdict::Fail("sync_memcpy_dtoh wrote the host buffer again after it returned: " +
                         *late);
  }
  return Verdict::Pass({{"bytes", std::to_string(kCopyBytes)}});
}

// sync_memcpy_dtod: the destination holds the source's bytes when the call returns; the
// source is overwritten right away.
Verdict SyncDtoD(CheckEnv& env) {
  if (env.device.se().sync_memcpy_dtod == nullptr) {
    return Verdict::NotSupported(
        "sync_memcpy_dtod is not set (TensorFlow's newest core never calls it)");
  }
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  auto source = env.device.Allocate(kCopyBytes);
  auto destination = env.device.Allocate(kCopyBytes);
  if (!source.ok()) return Verdict::CallFailed(source.error(), "allocate");
  if (!destination.ok()) return Verdict::CallFailed(destination.error(), "allocate");
  const auto pattern = SeededBytes(env.seed + 2, kCopyBytes);
  if (auto status = WriteDevice(*stream, source->All(), pattern); !status.ok()) {
    return Verdict::CallFailed(status.error(), "writing the source");
  }
  if (auto status = env.device.SyncMemcpyDtoD(destination->All(), source->All(), kCopyBytes);
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "sync_memcpy_dtod");
  }
  if (auto status = WriteDevice(*stream, source->All(), Inverted(pattern)); !status.ok()) {
    return Verdict::CallFailed(status.error(), "overwriting the source");
  }
  auto read = ReadDevice(*stream, destination->All());
  if (!read.ok()) return Verdict::CallFailed(read.error(), "reading the destination");
  if (auto mismatch = FirstMismatch(read->data(), pattern.data(), kCopyBytes)) {
    // Late, or wrong? Once idle, a late copy holds the pattern or the overwritten source.
    if (*read != Inverted(pattern)) return WrongBytesVerdict("sync_memcpy_dtod", *read, pattern);
    return Verdict::Fail("sync_memcpy_dtod returned before the copy was done: " + *mismatch,
                         {{"failing_call", "sync_memcpy_dtod"}, {"problem", "late completion"}});
  }
  return Verdict::Pass({{"bytes", std::to_string(kCopyBytes)}});
}

struct QueuedWork {
  SlowWork slow;
  std::vector<std::byte> expected;
  std::vector<std::byte> host;
  runtime::DeviceBuffer buffer;
};

// Slow work, then a device→host copy of a known pattern: done means the host holds it.
std::optional<Verdict> QueueWork(CheckEnv& env, runtime::Stream& stream, std::uint64_t salt,
                                 QueuedWork& work) {
  auto buffer = env.device.Allocate(kCopyBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  work.buffer = std::move(buffer.value());
  work.expected = SeededBytes(env.seed + salt, kCopyBytes);
  work.host.assign(kCopyBytes, std::byte{0xEE});
  if (auto status = WriteDevice(stream, work.buffer.All(), work.expected); !status.ok()) {
    return Verdict::CallFailed(status.error(), "writing the device");
  }
  work.slow = QueueSlowWork(stream, kSlowWorkMilliseconds);
  if (!work.slow.queued.ok()) return Verdict::CallFailed(work.slow.queued.error(), "host_callback");
  if (auto status = stream.MemcpyDtoH(work.host.data(), work.buffer.All(), kCopyBytes);
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "memcpy_dtoh");
  }
  return std::nullopt;
}

std::optional<std::string> Unfinished(const QueuedWork& work) {
  if (!work.slow.finished->load()) return "a host callback queued before it was still running";
  if (auto mismatch = FirstMismatch(work.host.data(), work.expected.data(), kCopyBytes)) {
    return "a device-to-host copy queued before it had not landed (" + *mismatch + ")";
  }
  return std::nullopt;
}

Verdict BlockHostUntilDone(CheckEnv& env) {
  QueuedWork work;  // declared first: the stream (which drains when destroyed) goes first
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  if (auto verdict = QueueWork(env, *stream, 3, work)) return *verdict;
  const runtime::CallStatus status = stream->BlockHostUntilDone();
  const auto unfinished = Unfinished(work);
  (void)WaitIdle(*stream);  // before `work` goes away, whatever the verdict
  if (auto never = SlowWorkNeverRan(env, work.slow)) return *never;
  const Details details{{"path", stream->uses_block_host_fallback()
                                     ? "TensorFlow's fallback (block_host_until_done is NULL)"
                                     : "block_host_until_done"}};
  if (!status.ok()) return Verdict::CallFailed(status.error(), "block_host_until_done", details);
  if (unfinished) {
    // Still wrong once idle: the copy itself is wrong (its leg is blamed), not the wait.
    return BlameWrongLegOr(
        *stream, env.seed, "block_host_until_done",
        Verdict::Fail("block_host_until_done returned while " + *unfinished, details));
  }
  return Verdict::Pass(details);
}

Verdict SynchronizeAllActivity(CheckEnv& env) {
  QueuedWork on_first, on_second;  // declared first: the streams drain before they go away
  auto first = env.device.CreateStream();
  auto second = env.device.CreateStream();
  if (!first.ok()) return Verdict::CallFailed(first.error(), "create_stream");
  if (!second.ok()) return Verdict::CallFailed(second.error(), "create_stream");
  if (auto verdict = QueueWork(env, *first, 4, on_first)) return *verdict;
  if (auto verdict = QueueWork(env, *second, 5, on_second)) return *verdict;
  const runtime::CallStatus status = env.device.SynchronizeAllActivity();
  auto unfinished = Unfinished(on_first);
  if (!unfinished) unfinished = Unfinished(on_second);
  (void)WaitIdle(*first);
  (void)WaitIdle(*second);
  if (auto never = SlowWorkNeverRan(env, on_first.slow)) return *never;
  if (auto never = SlowWorkNeverRan(env, on_second.slow)) return *never;
  if (!status.ok()) return Verdict::CallFailed(status.error(), "synchronize_all_activity");
  if (unfinished) {
    return BlameWrongLegOr(*first, env.seed, "synchronize_all_activity",
                           Verdict::Fail("synchronize_all_activity returned while " + *unfinished));
  }
  return Verdict::Pass({{"streams", "2"}});
}

}  // namespace

std::vector<TestUnit> SyncUnits() {
  // One unit per synchronous copy: TensorFlow never calls them (runtime/tensorflow_calls.h), so
  // a crash in one is that check's finding alone and must not take the others down with it.
  return {
      MakeRuntimeUnit("runtime.sync.copy_htod", "runtime", {"runtime.sync.memcpy_htod"},
                      [](CheckEnv& env) {
                        RunCheck(env, "runtime.sync.memcpy_htod", [&] { return SyncHtoD(env); });
                      }),
      MakeRuntimeUnit("runtime.sync.copy_dtoh", "runtime", {"runtime.sync.memcpy_dtoh"},
                      [](CheckEnv& env) {
                        RunCheck(env, "runtime.sync.memcpy_dtoh", [&] { return SyncDtoH(env); });
                      }),
      MakeRuntimeUnit("runtime.sync.copy_dtod", "runtime", {"runtime.sync.memcpy_dtod"},
                      [](CheckEnv& env) {
                        RunCheck(env, "runtime.sync.memcpy_dtod", [&] { return SyncDtoD(env); });
                      }),
      MakeRuntimeUnit(
          "runtime.sync.wait", "runtime",
          {"runtime.sync.block_host_until_done", "runtime.sync.synchronize_all_activity"},
          [](CheckEnv& env) {
            RunCheck(env, "runtime.sync.block_host_until_done",
                     [&] { return BlockHostUntilDone(env); });
            RunCheck(env, "runtime.sync.synchronize_all_activity",
                     [&] { return SynchronizeAllActivity(env); });
          })};
}

}  // namespace conformance::runtime_checks
