#pragma once
// Every SP_StreamExecutor callback by name, with its offset in each header generation: the
// single list the mock's table filler, fault injection and generation checks share.
#include <cstddef>
#include <optional>
#include <string_view>

#include "mocks/generation.h"

namespace conformance::mocks {

// X(field name, mock method name)
#define CONFORMANCE_MOCK_SE_CALLBACKS(X)                \
  X(allocate, Allocate)                                 \
  X(deallocate, Deallocate)                             \
  X(host_memory_allocate, HostMemoryAllocate)           \
  X(host_memory_deallocate, HostMemoryDeallocate)       \
  X(unified_memory_allocate, UnifiedMemoryAllocate)     \
  X(unified_memory_deallocate, UnifiedMemoryDeallocate) \
  X(get_allocator_stats, GetAllocatorStats)             \
  X(device_memory_usage, DeviceMemoryUsage)             \
  X(create_stream, CreateStream)                        \
  X(destroy_stream, DestroyStream)                      \
  X(create_stream_dependency, CreateStreamDependency)   \
  X(get_stream_status, GetStreamStatus)                 \
  X(create_event, CreateEvent)                          \
  X(destroy_event, DestroyEvent)                        \
  X(get_event_status, GetEventStatus)                   \
  X(record_event, RecordEvent)                          \
  X(wait_for_event, WaitForEvent)                       \
  X(create_timer, CreateTimer)                          \
  X(destroy_timer, DestroyTimer)                        \
  X(start_timer, StartTimer)                            \
  X(stop_timer, StopTimer)                              \
  X(memcpy_dtoh, MemcpyDtoH)                            \
  X(memcpy_htod, MemcpyHtoD)                            \
  X(memcpy_dtod, MemcpyDtoD)                            \
  X(sync_memcpy_dtoh, SyncMemcpyDtoH)                   \
  X(sync_memcpy_htod, SyncMemcpyHtoD)                   \
  X(sync_memcpy_dtod, SyncMemcpyDtoD)                   \
  X(block_host_for_event, BlockHostForEvent)            \
  X(block_host_until_done, BlockHostUntilDone)          \
  X(synchronize_all_activity, SynchronizeAllActivity)   \
  X(mem_zero, MemZero)                                  \
  X(memset, Memset)                                     \
  X(memset32, Memset32)                                 \
  X(host_callback, HostCallback)

enum class Callback {
#define CONFORMANCE_MOCK_ENUM(field, method) k##method,
  CONFORMANCE_MOCK_SE_CALLBACKS(CONFORMANCE_MOCK_ENUM)
#undef CONFORMANCE_MOCK_ENUM
};

std::string_view CallbackName(Callback callback);    // the C field name, e.g. "mem_zero"
std::string_view CallbackMethod(Callback callback);  // the mock method, e.g. "MemZero"
std::optional<Callback> ParseCallback(std::string_view field_or_method);
// Offset of the callback's function pointer in `generation`'s SP_StreamExecutor; nullopt
// when that generation has no such member (mem_zero/memset/memset32 before TF 2.10).
std::optional<std::size_t> CallbackOffset(Callback callback, Generation generation);

}  // namespace conformance::mocks
