// Memory callbacks: device allocations, host (pinned) memory, unified memory, statistics.
//
// Decisions a vendor may want to copy or change:
//  - allocate(size 0) returns opaque NULL with size 0 and uses nothing; deallocate(NULL) is
//    a no-op. (TensorFlow never needs a buffer for zero bytes; copies and fills of 0 bytes
//    accept a NULL device address.)
//  - A device that cannot satisfy a request returns opaque NULL: that is how TensorFlow
//    learns an allocation failed. There is no status argument to explain why.
//  - deallocate gives memory back in stream order (stream_ordered_free.h): once every stream
//    of the device has run what was queued before the call. TensorFlow without its BFC
//    allocator frees a kernel's inputs right after queuing the kernel.
//  - Host memory is 64-byte aligned (TensorFlow's default tensor alignment), from the C heap.
//  - Unified memory comes from the device arena: on this simulated device, device memory is
//    host-addressable anyway, so a unified allocation is simply a device allocation the host
//    may also touch. It counts in the device statistics and works with memcpy/memset.
#include <cstdlib>

#include "stream_executor/device.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/stream_executor_table.h"
#include "stream_executor/stream_ordered_free.h"

namespace reference_plugin {
namespace {

constexpr uint64_t kHostMemoryAlignment = 64;

// memory_space 0 is ordinary device memory, the only kind this device has.
constexpr int64_t kDefaultMemorySpace = 0;

Device* device_or_warn(const SP_Device* sp_device, const char* callback) {
  Device* device = nullptr;
  Status status = Device::from(sp_device, &device);
  if (!status.ok()) warn(str_cat(callback, ": ", status.message()));
  return device;
}

void allocate(const SP_Device* sp_device, uint64_t size, int64_t memory_space,
              SP_DeviceMemoryBase* mem) {
  if (mem == nullptr) return;
  // Start from "failed", so every early return below reports a failed allocation.
  *mem = SP_DeviceMemoryBase{};
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;

  Device* device = device_or_warn(sp_device, "allocate");
  if (device == nullptr || size == 0) return;
  if (memory_space != kDefaultMemorySpace) {
    warn(str_cat("allocate: memory_space ", memory_space, " is not supported (only 0)"));
    return;
  }
  void* address = device->memory().allocate(size);
  if (address == nullptr) return;  // device memory exhausted (or too fragmented)
  mem->opaque = address;
  mem->size = size;
}

void deallocate(const SP_Device* sp_device, SP_DeviceMemoryBase* memory) {
  if (memory == nullptr || memory->opaque == nullptr) return;
  Device* device = device_or_warn(sp_device, "deallocate");
  if (device == nullptr) return;
  free_in_stream_order(*device, memory->opaque);
}

void* host_memory_allocate(const SP_Device* /*device*/, uint64_t size) {
  if (size == 0 || size > UINT64_MAX - kHostMemoryAlignment) return nullptr;
  // aligned_alloc wants a size that is a multiple of the alignment.
  const uint64_t rounded =
      (size + kHostMemoryAlignment - 1) / kHostMemoryAlignment * kHostMemoryAlignment;
  return std::aligned_alloc(kHostMemoryAlignment, rounded);
}

void host_memory_deallocate(const SP_Device* /*device*/, void* mem) { std::free(mem); }

void* unified_memory_allocate(const SP_Device* sp_device, uint64_t bytes) {
  Device* device = device_or_warn(sp_device, "unified_memory_allocate");
  return device == nullptr ? nullptr : device->memory().allocate(bytes);
}

void unified_memory_deallocate(const SP_Device* sp_device, void* location) {
  if (location == nullptr) return;
  Device* device = device_or_warn(sp_device, "unified_memory_deallocate");
  if (device != nullptr && !device->memory().deallocate(location)) {
    warn(str_cat("unified_memory_deallocate: ", location, " is not a live allocation of device ",
                 device->ordinal()));
  }
}

TF_Bool get_allocator_stats(const SP_Device* sp_device, SP_AllocatorStats* stats) {
  Device* device = device_or_warn(sp_device, "get_allocator_stats");
  if (device == nullptr || stats == nullptr) return false;
  // The core pre-sets struct_size; a smaller struct (a core we do not know) cannot take ours.
  if (stats->struct_size != 0 && stats->struct_size < SP_ALLOCATORSTATS_STRUCT_SIZE) return false;
  fill_sp_allocator_stats(device->memory().stats(), stats);
  return true;
}

TF_Bool device_memory_usage(const SP_Device* sp_device, int64_t* free_bytes, int64_t* total_bytes) {
  Device* device = device_or_warn(sp_device, "device_memory_usage");
  if (device == nullptr || free_bytes == nullptr || total_bytes == nullptr) return false;
  // One snapshot, so free and total agree with each other and with get_allocator_stats.
  const AllocatorStatsSnapshot stats = device->memory().stats();
  *total_bytes = stats.bytes_limit;
  *free_bytes = stats.bytes_limit - stats.bytes_in_use;
  return true;
}

}  // namespace

void install_memory_callbacks(SP_StreamExecutor& table) {
  table.allocate = allocate;
  table.deallocate = deallocate;
  table.host_memory_allocate = host_memory_allocate;
  table.host_memory_deallocate = host_memory_deallocate;
  table.unified_memory_allocate = unified_memory_allocate;
  table.unified_memory_deallocate = unified_memory_deallocate;
  table.get_allocator_stats = get_allocator_stats;
  table.device_memory_usage = device_memory_usage;
}

}  // namespace reference_plugin
