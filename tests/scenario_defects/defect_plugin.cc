// A defect injector: a plugin that is the reference plugin with exactly one StreamExecutor
// callback replaced by a subtly wrong wrapper, chosen at build time with -DDEFECT_<NAME>.
// SE_InitPlugin opens the reference plugin, lets it register, and hooks
// create_stream_executor so the wrong callback is swapped in after the reference filled the
// table. Each defect is one a real plugin could plausibly have, and exactly one built-in
// scenario is meant to catch it (expectations.yaml).
#include <dlfcn.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

namespace {

// The reference plugin's own callbacks, called by the wrappers.
SP_StreamExecutor original;
void (*original_create_stream_executor)(const SP_Platform*, SE_CreateStreamExecutorParams*,
                                        TF_Status*) = nullptr;

// Live device allocations (opaque → size, device ordinal), for defects that need to know
// where an address came from.
std::mutex allocations_mutex;
std::map<uintptr_t, std::pair<uint64_t, int>> allocations;
std::set<void*> fake_allocations;  // handed out although the reference had no room

[[maybe_unused]] void Allocate(const SP_Device* device, uint64_t size, int64_t memory_space,
                               SP_DeviceMemoryBase* mem) {
#ifdef DEFECT_DEVICE1_ALIASES_DEVICE0
  if (device->ordinal == 1) {
    std::lock_guard lock(allocations_mutex);
    for (auto it = allocations.rbegin(); it != allocations.rend(); ++it) {
      if (it->second.second == 0 && it->second.first >= size) {
        // Device 1 hands out memory device 0 is using.
        mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
        // The allocation table keys addresses as integers, to order and compare them.
        mem->opaque = reinterpret_cast<void*>(it->first);  // NOLINT(performance-no-int-to-ptr)
        mem->size = size;
        return;
      }
    }
  }
#endif
  original.allocate(device, size, memory_space, mem);
#ifdef DEFECT_BEYOND_CAPACITY_SUCCEEDS
  if (mem->opaque == nullptr && size > 0) {
    // Pretends to have room: returns a pointer to memory it does not have.
    mem->opaque = std::malloc(1);
    mem->size = size;
    std::lock_guard lock(allocations_mutex);
    fake_allocations.insert(mem->opaque);
    return;
  }
#endif
  if (mem->opaque != nullptr) {
    std::lock_guard lock(allocations_mutex);
    allocations[reinterpret_cast<uintptr_t>(mem->opaque)] = {size, device->ordinal};
  }
}

[[maybe_unused]] void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
#ifdef DEFECT_DEALLOCATE_NULL_CRASHES
  if (mem->opaque == nullptr) std::raise(SIGSEGV);  // as if it dereferenced its bookkeeping
#endif
  {
    std::lock_guard lock(allocations_mutex);
    if (fake_allocations.erase(mem->opaque) > 0) {
      std::free(mem->opaque);
      return;
    }
    allocations.erase(reinterpret_cast<uintptr_t>(mem->opaque));
  }
  original.deallocate(device, mem);
}

[[maybe_unused]] void MemcpyDtoH(const SP_Device* device, SP_Stream stream, void* host_dst,
                                 const SP_DeviceMemoryBase* device_src, uint64_t size,
                                 TF_Status* status) {
  // Loses the last byte of odd-sized copies (a rounding bug in a DMA descriptor).
  original.memcpy_dtoh(device, stream, host_dst, device_src,
                       size % 2 == 1 && size > 1 ? size - 1 : size, status);
}

[[maybe_unused]] void SyncMemcpyDtoH(const SP_Device* device, void* host_dst,
                                     const SP_DeviceMemoryBase* device_src, uint64_t size,
                                     TF_Status* status) {
  original.sync_memcpy_dtoh(device, host_dst, device_src, size > 0 ? size - 1 : 0, status);
}

[[maybe_unused]] void MemcpyDtoD(const SP_Device* device, SP_Stream stream,
                                 SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
                                 uint64_t size, TF_Status* status) {
  // Copies from the start of the source allocation, ignoring the sub-buffer's offset.
  SP_DeviceMemoryBase from = *src;
  {
    std::lock_guard lock(allocations_mutex);
    const auto address = reinterpret_cast<uintptr_t>(src->opaque);
    auto it = allocations.upper_bound(address);
    if (it != allocations.begin() && (--it, address < it->first + it->second.first)) {
      from.opaque = reinterpret_cast<void*>(it->first);  // NOLINT(performance-no-int-to-ptr)
      from.size = it->second.first;
    }
  }
  original.memcpy_dtod(device, stream, dst, &from, size, status);
}

[[maybe_unused]] void SyncMemcpyDtoD(const SP_Device* device, SP_DeviceMemoryBase* dst,
                                     const SP_DeviceMemoryBase* src, uint64_t size,
                                     TF_Status* status) {
  // Source and destination the wrong way round.
  SP_DeviceMemoryBase to = *src;
  original.sync_memcpy_dtod(device, &to, dst, size, status);
}

[[maybe_unused]] void Memset(const SP_Device* device, SP_Stream stream,
                             SP_DeviceMemoryBase* location, uint8_t pattern, uint64_t size,
                             TF_Status* status) {
  // One byte too many (an inclusive end).
  SP_DeviceMemoryBase longer = *location;
  longer.size += 1;
  original.memset(device, stream, &longer, pattern, size + 1, status);
}

[[maybe_unused]] void Memset32(const SP_Device* device, SP_Stream stream,
                               SP_DeviceMemoryBase* location, uint32_t pattern, uint64_t size,
                               TF_Status* status) {
  // Fills with the pattern's low byte only.
  original.memset(device, stream, location, static_cast<uint8_t>(pattern & 0xff), size, status);
}

[[maybe_unused]] void MemZero(const SP_Device* device, SP_Stream stream,
                              SP_DeviceMemoryBase* location, uint64_t size, TF_Status* status) {
  original.mem_zero(device, stream, location, size % 2 == 1 ? size - 1 : size, status);
}

[[maybe_unused]] void CreateStreamDependency(const SP_Device*, SP_Stream, SP_Stream,
                                             TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");  // accepted, but nothing waits
}

[[maybe_unused]] void WaitForEvent(const SP_Device* const, SP_Stream, SP_Event, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");  // accepted, but nothing waits
}

[[maybe_unused]] void BlockHostForEvent(const SP_Device*, SP_Event, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");  // returns at once, whatever the event still waits for
}

[[maybe_unused]] SE_EventStatus GetEventStatus(const SP_Device* device, SP_Event event) {
  const SE_EventStatus status = original.get_event_status(device, event);
  return status == SE_EVENT_COMPLETE ? SE_EVENT_PENDING : status;  // never reports completion
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  original_create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  SP_StreamExecutor* se = params->stream_executor;
  original = *se;
  // Bookkeeping wrappers are always in, so every variant differs from the reference only by
  // its defect.
  se->allocate = Allocate;
  se->deallocate = Deallocate;
#if defined(DEFECT_DTOH_ODD_SIZE_SHORT)
  se->memcpy_dtoh = MemcpyDtoH;
#elif defined(DEFECT_SYNC_DTOH_SHORT)
  se->sync_memcpy_dtoh = SyncMemcpyDtoH;
#elif defined(DEFECT_DTOD_IGNORES_SRC_OFFSET)
  se->memcpy_dtod = MemcpyDtoD;
#elif defined(DEFECT_SYNC_DTOD_SWAPPED)
  se->sync_memcpy_dtod = SyncMemcpyDtoD;
#elif defined(DEFECT_MEMSET_ONE_EXTRA)
  se->memset = Memset;
#elif defined(DEFECT_MEMSET32_LOW_BYTE)
  se->memset32 = Memset32;
#elif defined(DEFECT_MEM_ZERO_SHORT_ODD)
  se->mem_zero = MemZero;
#elif defined(DEFECT_DEPENDENCY_IGNORED)
  se->create_stream_dependency = CreateStreamDependency;
#elif defined(DEFECT_WAIT_FOR_EVENT_IGNORED)
  se->wait_for_event = WaitForEvent;
#elif defined(DEFECT_BLOCK_HOST_FOR_EVENT_EARLY)
  se->block_host_for_event = BlockHostForEvent;
#elif defined(DEFECT_EVENT_STUCK_PENDING)
  se->get_event_status = GetEventStatus;
#endif
}

}  // namespace

extern "C" void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "scenario defect plugin"))
    return;
  original_create_stream_executor = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
}
