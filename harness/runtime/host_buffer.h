#pragma once
// host_memory_allocate / unified_memory_allocate results owned by the harness, freed with the
// matching deallocate exactly once.
#include <cstddef>
#include <cstdint>

#include "runtime/device_buffer.h"

namespace conformance::runtime {

class Device;

class PluginHostMemory {
 public:
  PluginHostMemory() = default;
  PluginHostMemory(PluginHostMemory&& other) noexcept;
  PluginHostMemory& operator=(PluginHostMemory&& other) noexcept;
  PluginHostMemory(const PluginHostMemory&) = delete;
  PluginHostMemory& operator=(const PluginHostMemory&) = delete;
  ~PluginHostMemory();

  bool valid() const { return device_ != nullptr; }
  void* data() const { return data_; }
  std::byte* bytes() const { return static_cast<std::byte*>(data_); }
  std::uint64_t size() const { return size_; }
  void Reset();

 protected:
  enum class Kind { kHost, kUnified };
  PluginHostMemory(Device* device, Kind kind, void* data, std::uint64_t size)
      : device_(device), kind_(kind), data_(data), size_(size) {}

 private:
  Device* device_ = nullptr;
  Kind kind_ = Kind::kHost;
  void* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// Pinned host memory (host_memory_allocate / host_memory_deallocate).
class HostBuffer : public PluginHostMemory {
 public:
  HostBuffer() = default;

 private:
  friend class Device;
  HostBuffer(Device* device, void* data, std::uint64_t size)
      : PluginHostMemory(device, Kind::kHost, data, size) {}
};

// Unified memory (unified_memory_allocate / unified_memory_deallocate): host-addressable and
// usable as a device address (DeviceRange via AsDevice()).
class UnifiedBuffer : public PluginHostMemory {
 public:
  UnifiedBuffer() = default;
  // The same bytes as a device address, for memcpy/memset on a stream.
  DeviceRange AsDevice() const { return DeviceRange(data(), size(), 0); }

 private:
  friend class Device;
  UnifiedBuffer(Device* device, void* data, std::uint64_t size)
      : PluginHostMemory(device, Kind::kUnified, data, size) {}
};

}  // namespace conformance::runtime
