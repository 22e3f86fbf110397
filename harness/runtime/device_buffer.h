#pragma once
// A device allocation owned by the harness (deallocate on destruction, exactly once), and
// byte ranges inside it addressed as TensorFlow addresses sub-buffers: opaque advanced by the
// offset, size = the range's size, payload kept only for the whole buffer (TensorFlow's byte
// slices carry no payload).
#include <cstdint>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::runtime {

class Device;

class DeviceRange {
 public:
  DeviceRange(void* opaque, std::uint64_t size, std::uint64_t payload)
      : opaque_(opaque), size_(size), payload_(payload) {}
  // The SP_DeviceMemoryBase TensorFlow would build for this range (struct_size set, ext NULL).
  SP_DeviceMemoryBase ToC() const;
  void* opaque() const { return opaque_; }
  std::uint64_t size() const { return size_; }
  // Starts inside an allocation (opaque + offset), as TensorFlow passes sliced tensors.
  bool interior() const { return interior_; }
  DeviceRange& MarkInterior() {
    interior_ = true;
    return *this;
  }

 private:
  void* opaque_;
  std::uint64_t size_;
  std::uint64_t payload_;
  bool interior_ = false;
};

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  bool valid() const { return device_ != nullptr; }
  void* opaque() const { return opaque_; }
  std::uint64_t size() const {
    return size_;
  }  // what the plugin wrote (or requested, if unwritten)
  std::uint64_t requested() const { return requested_; }
  std::uint64_t payload() const { return payload_; }
  bool size_written() const { return size_written_; }
  bool payload_written() const { return payload_written_; }
  std::uint64_t struct_size_after() const { return struct_size_after_; }  // as the plugin left it

  DeviceRange All() const { return DeviceRange(opaque_, requested_, payload_); }
  // [offset, offset + size) of the requested bytes; aborts on a range outside the buffer
  // (a harness bug, never the plugin's).
  DeviceRange Range(std::uint64_t offset, std::uint64_t size) const;

  // deallocate now (idempotent).
  void Reset();
  Device* device() const { return device_; }

 private:
  friend class Device;
  Device* device_ = nullptr;
  void* opaque_ = nullptr;
  std::uint64_t size_ = 0, requested_ = 0, payload_ = 0, struct_size_after_ = 0;
  bool size_written_ = false, payload_written_ = false;
};

}  // namespace conformance::runtime
