#include "cross_stream_order.h"

#include "leg_verdicts.h"

#include <vector>

namespace conformance::runtime_checks {

namespace {
constexpr std::uint64_t kOrderedBytes = 1 << 20;
}  // namespace

Verdict CrossStreamOrder(CheckEnv& env, const std::string& how,
                         const std::function<runtime::CallStatus(runtime::Stream& first,
                                                                 runtime::Stream& second)>& order) {
  std::vector<std::byte> host(kOrderedBytes, std::byte{0xEE});
  const auto expected = SeededBytes(env.seed + 7, kOrderedBytes);
  auto buffer = env.device.Allocate(kOrderedBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  auto first = env.device.CreateStream();
  auto second = env.device.CreateStream();
  if (!first.ok()) return Verdict::CallFailed(first.error(), "create_stream");
  if (!second.ok()) return Verdict::CallFailed(second.error(), "create_stream");
  if (auto status = WriteDevice(*first, buffer->All(), std::vector<std::byte>(kOrderedBytes));
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "zeroing the buffer");
  }
  SlowWork slow = QueueSlowWork(*first, kSlowWorkMilliseconds);
  if (!slow.queued.ok()) return Verdict::CallFailed(slow.queued.error(), "host_callback");
  if (auto status = first->MemcpyHtoD(buffer->All(), expected.data(), kOrderedBytes);
      !status.ok()) {
    return Verdict::CallFailed(status.error(), "memcpy_htod");
  }
  if (auto status = order(*first, *second); !status.ok())
    return Verdict::CallFailed(status.error(), how);
  if (auto status = second->MemcpyDtoH(host.data(), buffer->All(), kOrderedBytes); !status.ok()) {
    return Verdict::CallFailed(status.error(), "memcpy_dtoh");
  }
  (void)WaitIdle(*second);
  (void)WaitIdle(*first);
  if (auto mismatch = FirstMismatch(host.data(), expected.data(), kOrderedBytes)) {
    return BlameWrongLegOr(
        *first, env.seed, how,
        Verdict::Fail("a copy queued on a stream after " + how +
                      " ran before the other stream's earlier copy (" + *mismatch + ")"));
  }
  return Verdict::Pass();
}

}  // namespace conformance::runtime_checks
