#pragma once
// Where tensor memory comes from. The kernel context allocates outputs and temporaries
// through a device descriptor's allocators, so the kernel runtime can route device
// memory through a plugin's SP_StreamExecutor.allocate while host memory and the CPU
// device use HostAllocator().
#include <cstddef>
#include <memory>
#include <string>

#include "core/export.h"

namespace conformance::core {

// The alignment TensorFlow guarantees for tensor buffers (EIGEN_MAX_ALIGN_BYTES) and
// reports through TF_TensorDefaultAlignment().
inline constexpr std::size_t kDefaultAlignment = 64;

class MemoryAllocator {
 public:
  virtual ~MemoryAllocator() = default;
  // Appears in OOM messages ("... by allocator <name>").
  virtual std::string Name() const = 0;
  // Returns the address of `bytes` (> 0) bytes, or nullptr when out of memory. For
  // device allocators the address is the device pointer (SP_DeviceMemoryBase.opaque),
  // which is also what TF_TensorData returns to the plugin.
  virtual void* Allocate(std::size_t bytes) = 0;
  virtual void Deallocate(void* ptr, std::size_t bytes) = 0;
};

// Process-wide host allocator: 64-byte aligned; new memory is filled with the byte
// kHostPoison so a kernel that reads an output it never wrote sees a fixed pattern
// instead of whatever was there before (results stay reproducible). Name "cpu".
inline constexpr unsigned char kHostPoison = 0xA5;
CONFORMANCE_CORE_API std::shared_ptr<MemoryAllocator> HostAllocator();

}  // namespace conformance::core
