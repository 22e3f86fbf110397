#pragma once
// Device memory for a model, handed out as TensorFlow's allocator for the plugin does it.
//
// With the BFC allocator (SP_Platform.use_bfc_allocator set, Reuse::kLikeBfc): a buffer
// freed after its last use goes back to a free list at once (no synchronisation: work on the
// one compute stream is ordered, so the next node to get it writes it after the last reader
// read it) and the next request of its size gets it back, lowest address first. Chained
// kernels therefore meet buffers that held other tensors a moment ago, and each step of a
// model meets the addresses of the step before. Blocks come from, and finally return to, the
// plugin through the kernel tier's PluginDeviceAllocator.
//
// Without it (Reuse::kNone), every request goes to the plugin's allocate and every free to its
// deallocate at once, while the kernels that read the buffer may still be queued: TensorFlow
// frees a tensor as soon as its last consumer is queued (docs/tensorflow/calls.md).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "core/allocator.h"
#include "kernels/device_allocator.h"

namespace conformance::models {

class ReusingAllocator : public core::MemoryAllocator {
 public:
  enum class Reuse { kLikeBfc, kNone };
  ReusingAllocator(std::shared_ptr<kernels::PluginDeviceAllocator> plugin, Reuse reuse);
  ~ReusingAllocator() override;

  std::string Name() const override { return plugin_->Name(); }
  void* Allocate(std::size_t bytes) override;
  void Deallocate(void* ptr, std::size_t bytes) override;

  // Bytes held by tensors (free-listed blocks not counted).
  std::int64_t in_use_bytes() const;
  // Returns every free-listed block to the plugin (the caller has synchronised the stream).
  void Drain();

 private:
  std::shared_ptr<kernels::PluginDeviceAllocator> plugin_;
  const Reuse reuse_;
  mutable std::mutex mutex_;
  std::map<std::size_t, std::set<void*>> free_;  // size -> blocks, lowest address first
  std::map<void*, std::size_t> in_use_;
  std::int64_t in_use_bytes_ = 0;
};

}  // namespace conformance::models
