#include "kernels/device_allocator.h"

#include <cstdint>
#include <string>

#include "kernels/case_footprint.h"
#include "kernels/guard_bytes.h"
#include "runtime/tensorflow_calls.h"
#include "runtime/wait_idle.h"

namespace conformance::kernels {

PluginDeviceAllocator::PluginDeviceAllocator(runtime::Device& device, std::string name, bool guards)
    : device_(device), name_(std::move(name)), guards_(guards) {}

// Whatever is still live here was leaked by a kernel (a TF_Tensor never deleted keeps its
// buffer); the DeviceBuffers give it back to the plugin before the session goes away.
PluginDeviceAllocator::~PluginDeviceAllocator() = default;

// Called with mutex_ held (the stream is shared by every allocation). Null when create_stream
// failed: blocks are then neither poisoned nor guarded.
runtime::Stream* PluginDeviceAllocator::PoisonStream() {
  if (!poison_stream_tried_) {
    poison_stream_tried_ = true;
    if (auto stream = device_.CreateStream(); stream.ok()) poison_stream_ = std::move(*stream);
  }
  return poison_stream_.valid() ? &poison_stream_ : nullptr;
}

void* PluginDeviceAllocator::Allocate(std::size_t bytes) {
  // TensorFlow's BFC allocator answers a 0-byte request itself (NULL) and never asks the plugin.
  if (bytes < runtime::kSmallestAllocationTensorFlowRequests) return nullptr;
  if (bytes > limit_) {
    std::lock_guard lock(mutex_);
    last_failure_ = std::to_string(bytes) + " bytes exceed the device's " + std::to_string(limit_) +
                    " bytes of memory (not asked of the plugin)";
    return nullptr;
  }
  auto buffer = device_.Allocate(bytes + (guards_ ? kGuardBytes : 0));
  std::lock_guard lock(mutex_);
  if (!buffer.ok()) {
    last_failure_ = buffer.error().Describe();
    return nullptr;
  }
  void* address = buffer->opaque();
  // Poisoned: memory a kernel never writes must not happen to hold the right answer from an
  // earlier run that used the same block. Then the guard bytes after its end.
  if (runtime::Stream* stream = PoisonStream())
    WritePoisonAndGuard(*stream, buffer->All(), bytes, kPoisonByte, guards_);
  live_bytes_ += static_cast<std::int64_t>(bytes);
  live_.emplace(address, std::move(buffer.value()));
  return address;
}

void PluginDeviceAllocator::Deallocate(void* ptr, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  auto found = live_.find(ptr);
  if (found == live_.end()) return;
  // Kept until ReleaseFreed: work still queued may write past the end after this call.
  freed_.emplace_back(bytes, std::move(found->second));
  live_.erase(found);
  live_bytes_ -= static_cast<std::int64_t>(bytes);
}

std::vector<std::size_t> PluginDeviceAllocator::ReleaseFreed() {
  std::vector<std::pair<std::size_t, runtime::DeviceBuffer>> freed;
  {
    std::lock_guard lock(mutex_);
    freed.swap(freed_);
  }
  std::vector<std::size_t> overwritten;
  {
    std::lock_guard lock(mutex_);  // the allocator's stream is shared with Allocate
    runtime::Stream* stream = PoisonStream();
    for (const auto& [bytes, buffer] : freed) {
      if (guards_ && stream != nullptr && !GuardIntact(*stream, buffer.All(), bytes))
        overwritten.push_back(bytes);
    }
  }
  return overwritten;  // `freed` deallocates on the way out, outside the lock
}

void PluginDeviceAllocator::ReleaseFreedNow() {
  std::vector<std::pair<std::size_t, runtime::DeviceBuffer>> freed;
  {
    std::lock_guard lock(mutex_);
    freed.swap(freed_);
  }
}  // `freed` deallocates on the way out, outside the lock

std::int64_t PluginDeviceAllocator::live_bytes() const {
  std::lock_guard lock(mutex_);
  return live_bytes_;
}

std::int64_t PluginDeviceAllocator::live_allocations() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(live_.size());
}

std::string PluginDeviceAllocator::last_failure() const {
  std::lock_guard lock(mutex_);
  return last_failure_;
}

std::uint64_t KernelMemoryLimit(std::int64_t device_total) {
  if (device_total > 0) return static_cast<std::uint64_t>(device_total);
  const std::int64_t host = HostMemoryBytes();
  return host > 0 ? static_cast<std::uint64_t>(host) : UINT64_MAX;
}

}  // namespace conformance::kernels
