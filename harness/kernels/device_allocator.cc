#include "kernels/device_allocator.h"

#include "runtime/tensorflow_calls.h"

namespace conformance::kernels {

PluginDeviceAllocator::PluginDeviceAllocator(runtime::Device& device, std::string name)
    : device_(device), name_(std::move(name)) {}

// Whatever is still live here was leaked by a kernel (a TF_Tensor never deleted keeps its
// buffer); the DeviceBuffers give it back to the plugin before the session goes away.
PluginDeviceAllocator::~PluginDeviceAllocator() = default;

// Called with mutex_ held (poison_ and the stream are shared by every allocation).
void PluginDeviceAllocator::Poison(const runtime::DeviceRange& range, std::size_t bytes) {
  if (!poison_stream_tried_) {
    poison_stream_tried_ = true;
    if (auto stream = device_.CreateStream(); stream.ok()) poison_stream_ = std::move(*stream);
  }
  if (!poison_stream_.valid()) return;
  if (poison_.size() < bytes) poison_.resize(bytes, kPoisonByte);
  // The host bytes must outlive the copy: wait for the stream before anything else runs.
  if (poison_stream_.MemcpyHtoD(range, poison_.data(), bytes).ok())
    (void)poison_stream_.BlockHostUntilDone();
}

void* PluginDeviceAllocator::Allocate(std::size_t bytes) {
  // TensorFlow's BFC allocator answers a 0-byte request itself (NULL) and never asks the plugin.
  if (bytes < runtime::kSmallestAllocationTensorFlowRequests) return nullptr;
  auto buffer = device_.Allocate(bytes);
  std::lock_guard lock(mutex_);
  if (!buffer.ok()) {
    last_failure_ = buffer.error().Describe();
    return nullptr;
  }
  void* address = buffer->opaque();
  // Poisoned: memory a kernel never writes must not happen to hold the right answer from an
  // earlier run that used the same block.
  Poison(buffer->All(), bytes);
  live_bytes_ += static_cast<std::int64_t>(bytes);
  live_.emplace(address, std::move(buffer.value()));
  return address;
}

void PluginDeviceAllocator::Deallocate(void* ptr, std::size_t bytes) {
  runtime::DeviceBuffer released;  // deallocated outside the lock
  {
    std::lock_guard lock(mutex_);
    auto found = live_.find(ptr);
    if (found == live_.end()) return;
    released = std::move(found->second);
    live_.erase(found);
    live_bytes_ -= static_cast<std::int64_t>(bytes);
  }
}

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

}  // namespace conformance::kernels
