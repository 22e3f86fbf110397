#pragma once
// The device memory TensorFlow's core would give a kernel on a PluggableDevice: every byte
// comes from the plugin's own SP_StreamExecutor.allocate (through the runtime layer) and goes
// back through its deallocate. Counts what is live, so a case can tell whether device memory
// is back where it started.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/allocator.h"
#include "runtime/runtime.h"

namespace conformance::kernels {

class PluginDeviceAllocator : public core::MemoryAllocator {
 public:
  // Every new allocation is filled with this byte (NaN for floats, -1 for integers), through
  // memcpy_htod on a stream and block_host_until_done: calls TensorFlow itself makes
  // (runtime/tensorflow_calls.h), so a plugin whose other calls are broken still gets its
  // kernels judged.
  static constexpr std::uint8_t kPoisonByte = 0xFF;

  // `name` appears in OOM messages (TensorFlow names the device's BFC allocator). `guards`:
  // guard bytes after every block, for a plugin with SP_Platform.use_bfc_allocator, whose
  // tensors TensorFlow packs side by side in one region; without it every tensor is an
  // allocation of its own, so nothing of TensorFlow's lies past a buffer's end (and a plugin
  // may legitimately work on its whole allocation), and blocks are allocated exactly.
  PluginDeviceAllocator(runtime::Device& device, std::string name, bool guards);
  ~PluginDeviceAllocator() override;

  std::string Name() const override { return name_; }
  void* Allocate(std::size_t bytes) override;
  void Deallocate(void* ptr, std::size_t bytes) override;

  // Requests beyond `bytes` are refused here, as TensorFlow's BFC allocator refuses what lies
  // beyond the device's memory limit (at most what device_memory_usage reports) without ever
  // asking the plugin. A plugin without the BFC allocator is asked by TensorFlow and must
  // refuse such a request itself: that is runtime.memory.allocate.beyond_capacity's finding,
  // so the kernel tier judges kernels as on a plugin whose allocate is right.
  void LimitTo(std::uint64_t bytes) { limit_ = bytes; }

  bool guards() const { return guards_; }
  std::int64_t live_bytes() const;
  std::int64_t live_allocations() const;
  // What the last failed Allocate was told by the plugin (empty if none failed).
  std::string last_failure() const;
  // Buffers released since the last call go back to the plugin only here, once the case's
  // work has finished: their guard bytes (kernels/guard_bytes.h) are checked first. Returns
  // the sizes of those whose guard a kernel overwrote.
  std::vector<std::size_t> ReleaseFreed();
  // The same at TensorFlow's moment without its BFC allocator, while the case's work is still
  // queued: straight to the plugin's deallocate, with no read of the guard bytes (a copy
  // TensorFlow would not make then).
  void ReleaseFreedNow();

 private:
  runtime::Stream* PoisonStream();

  runtime::Device& device_;
  std::string name_;
  bool guards_;
  mutable std::mutex mutex_;
  std::map<void*, runtime::DeviceBuffer> live_;
  std::vector<std::pair<std::size_t, runtime::DeviceBuffer>> freed_;  // bytes, buffer
  std::int64_t live_bytes_ = 0;
  std::string last_failure_;
  std::uint64_t limit_ = UINT64_MAX;
  // Where new blocks are poisoned: a stream of the allocator's own, like TensorFlow's
  // host-to-device stream (the compute stream may be held by a gate or running the kernel).
  // Created on first use; invalid when create_stream failed (blocks are then not poisoned).
  runtime::Stream poison_stream_;
  bool poison_stream_tried_ = false;
};

// The limit a kernel allocation on the device may not exceed: the total memory the plugin's
// device_memory_usage reports (`device_total`, TensorFlow's limit is its free memory less a
// reserve, never more), or, when it reports none, the host's physical memory: the harness
// copies every output back to the host.
std::uint64_t KernelMemoryLimit(std::int64_t device_total);

}  // namespace conformance::kernels
