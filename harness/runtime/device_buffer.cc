#include "runtime/device_buffer.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "runtime/device.h"
#include "runtime/device_session.h"

namespace conformance::runtime {

SP_DeviceMemoryBase DeviceRange::ToC() const {
  SP_DeviceMemoryBase mem{};
  mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem.opaque = opaque_;
  mem.size = size_;
  mem.payload = payload_;
  return mem;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, nullptr);
    opaque_ = std::exchange(other.opaque_, nullptr);
    size_ = other.size_;
    requested_ = other.requested_;
    payload_ = other.payload_;
    struct_size_after_ = other.struct_size_after_;
    size_written_ = other.size_written_;
    payload_written_ = other.payload_written_;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { Reset(); }

DeviceRange DeviceBuffer::Range(std::uint64_t offset, std::uint64_t size) const {
  if (offset > requested_ || size > requested_ - offset) {
    std::fprintf(
        stderr,
        "runtime::DeviceBuffer::Range(%llu, %llu) outside a %llu-byte buffer (harness bug)\n",
        static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size),
        static_cast<unsigned long long>(requested_));
    std::abort();
  }
  // TensorFlow's byte slices: base address plus offset, no payload (unless it is the whole buffer).
  const bool whole = offset == 0 && size == requested_;
  DeviceRange range(static_cast<char*>(opaque_) + offset, size, whole ? payload_ : 0);
  if (offset > 0) range.MarkInterior();
  return range;
}

void DeviceBuffer::Reset() {
  if (device_ == nullptr) return;
  // TensorFlow hands deallocate the address alone: struct_size set, size and payload 0, whatever
  // allocate wrote (2.21, measured without the BFC allocator: docs/tensorflow/calls.md). A
  // plugin that frees by size or payload must keep them itself, as a real allocator does.
  device_->DeallocateRaw(opaque_, 0, 0);
  device_->session().accounting().device_buffers.destroyed.fetch_add(1);
  device_ = nullptr;
  opaque_ = nullptr;
}

}  // namespace conformance::runtime
