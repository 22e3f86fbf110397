// deallocate while work that reads the block is still queued, as TensorFlow does it.
//
// Without its BFC allocator (SP_Platform.use_bfc_allocator = 0), TensorFlow deallocates a
// kernel's inputs as soon as the kernel is queued, when their last reference drops, and never
// waits for the stream first (measured on 2.21: docs/tensorflow/calls.md). The device must keep
// a freed block intact for work already queued: cudaFree waits for the device, and a
// stream-ordered allocator gives the block back once the streams got that far. A device that
// frees at once lets the queued kernel read whatever its allocator or the next user wrote there.
//
// The check makes that moment deterministic: the reading work (a memcpy_dtoh, queued on the
// stream as a kernel's read of its input is) waits behind a held stream while the block is
// deallocated, and the hold ends only when this thread waits for the stream. memcpy_dtod would
// model a kernel more closely, but runtime.memcpy.status_ok alone calls it.
#include <optional>
#include <string>
#include <vector>

#include "check_support.h"
#include "leg_verdicts.h"
#include "runtime/problems.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr int kHoldMilliseconds = 100;
// A small tensor (a heap allocator writes its free-list links into such a block) and a large
// one (an allocator may give its pages back to the system).
constexpr std::uint64_t kSizes[] = {256, std::uint64_t{4} << 20};

struct QueuedRead {
  std::vector<std::byte> expected;
  std::vector<std::byte> read;  // what the queued work copied out of the block
};

// Writes a pattern into a fresh block, queues a copy out of it behind a held stream, then (when
// `free_while_queued`) deallocates the block before letting the stream go.
runtime::CallResult<QueuedRead> ReadBehindHold(CheckEnv& env, runtime::Stream& stream,
                                               std::uint64_t size, bool free_while_queued,
                                               std::optional<Verdict>& never_ran) {
  auto source = env.device.Allocate(size);
  if (!source.ok()) return source.error();
  QueuedRead result;
  result.expected = SeededBytes(env.seed + size, size);
  if (auto status = WriteDevice(stream, source->All(), result.expected); !status.ok())
    return status.error();
  SlowWork hold = QueueSlowWork(stream, kHoldMilliseconds);
  if (!hold.queued.ok()) return hold.queued.error();
  result.read.assign(size, std::byte{0xEE});
  if (auto status = stream.MemcpyDtoH(result.read.data(), source->All(), size); !status.ok())
    return status.error();
  if (free_while_queued) source->Reset();  // TensorFlow's moment: right after the enqueue
  if (auto status = WaitIdle(stream); !status.ok()) return status.error();
  never_ran = SlowWorkNeverRan(env, hold);
  return result;
}

Verdict DeallocateWithQueuedWork(CheckEnv& env) {
  auto stream = env.device.CreateStream();
  if (!stream.ok()) return Verdict::CallFailed(stream.error(), "create_stream");
  (void)KnownGoodPaths(*stream);  // probed now: probing waits, which must not happen mid-check
  const bool bfc = env.session.platform().use_bfc_allocator != 0;
  for (const std::uint64_t size : kSizes) {
    std::optional<Verdict> never_ran;
    auto freed = ReadBehindHold(env, *stream, size, /*free_while_queued=*/true, never_ran);
    if (!freed.ok())
      return Verdict::CallFailed(freed.error(), "reading a block freed while queued");
    if (never_ran) return *never_ran;
    const auto mismatch = FirstMismatch(freed->read.data(), freed->expected.data(), size);
    if (!mismatch) continue;
    // The same sequence with the block kept until the copy ran tells a wrong copy (its own
    // checks' finding) from a free that did not wait.
    auto kept = ReadBehindHold(env, *stream, size, /*free_while_queued=*/false, never_ran);
    if (!kept.ok()) return Verdict::CallFailed(kept.error(), "reading a block kept while queued");
    if (never_ran) return *never_ran;
    // Wrong even with the block kept: the copy's own fault, one root cause with
    // runtime.memcpy.exact_bytes.
    if (kept->read != kept->expected)
      return WrongBytesVerdict("memcpy_dtoh", kept->read, kept->expected);
    const std::string what = "a " + std::to_string(size) +
                             "-byte block deallocated while a queued memcpy_dtoh still read it "
                             "lost its contents before the copy ran (" +
                             *mismatch + ")";
    validate::Details details = {{"failing_call", "deallocate"},
                                 {"problem", std::string(runtime::kFreedUnderQueuedWork)},
                                 {"bytes", std::to_string(size)}};
    if (bfc) {
      return Verdict::Warning(
          what +
              ". TensorFlow's BFC allocator (use_bfc_allocator is set) never deallocates while "
              "work is queued, so TensorFlow is not affected as long as it stays set",
          details);
    }
    return Verdict::Fail(what + ". " + std::string(runtime::kFreedUnderQueuedWorkConsequence),
                         details);
  }
  return Verdict::Pass(
      {{"sizes", "256 and 4194304 bytes"}, {"use_bfc_allocator", bfc ? "1" : "0"}});
}

}  // namespace

std::vector<TestUnit> DeallocateUnits() {
  return {MakeRuntimeUnit("runtime.memory.deallocate_timing", "runtime",
                          {"runtime.memory.deallocate.queued_work"}, [](CheckEnv& env) {
                            RunCheck(env, "runtime.memory.deallocate.queued_work",
                                     [&] { return DeallocateWithQueuedWork(env); });
                          })};
}

}  // namespace conformance::runtime_checks
