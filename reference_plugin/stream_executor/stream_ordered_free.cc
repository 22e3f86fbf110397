#include "stream_executor/stream_ordered_free.h"

#include <atomic>
#include <cstddef>
#include <memory>

#include "stream_executor/diagnostics.h"

namespace reference_plugin {
namespace {

// Counts down the streams (and the caller) that have yet to reach the free; the last one out
// gives the block back.
class PendingFree {
 public:
  PendingFree(DeviceMemoryArena& arena, void* address, int32_t ordinal, std::size_t parties)
      : arena_(arena), address_(address), ordinal_(ordinal), waiting_(parties) {}

  void arrive() {
    if (waiting_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (!arena_.deallocate(address_)) {
      warn(str_cat("deallocate: ", address_, " is not a live allocation of device ", ordinal_,
                   " (double free, or memory of another device?)"));
    }
  }

 private:
  DeviceMemoryArena& arena_;  // outlives the streams: the device destroys them first
  void* const address_;
  const int32_t ordinal_;
  std::atomic<std::size_t> waiting_;
};

}  // namespace

void free_in_stream_order(Device& device, void* address) {
  const auto streams = device.streams().snapshot();
  auto pending =
      std::make_shared<PendingFree>(device.memory(), address, device.ordinal(), streams.size() + 1);
  for (const auto& stream : streams) {
    // A stream being destroyed runs what it has queued before it refuses new work, so the
    // point is reached already.
    if (!stream->run_when_reached([pending] { pending->arrive(); }).ok()) pending->arrive();
  }
  pending->arrive();  // the caller's own share: nothing is freed while the loop still queues
}

}  // namespace reference_plugin
