// One small synchronous host-memory device, compiled against each TensorFlow header generation
// (tests/generations/CMakeLists.txt): the generated TF 2.5-2.6 / 2.7-2.8 variants of
// stream_executor.h or the project's newest one. The source names fields only; the header in use
// decides the layout and the struct_size values (SP_PLATFORM_STRUCT_SIZE 34/35,
// SP_STREAMEXECUTOR_STRUCT_SIZE 264/288).
//
//   GEN_HAS_FILLS              the header has mem_zero/memset/memset32 (TF 2.7+): fill them.
//   GEN_DEFECT_LOST_CALLBACK   host_callback reports success but never runs the callback (the
//                              runtime tier must fail it under the plugin's own profile).
//   GEN_DEFECT_NO_MEM_ZERO     a TF 2.9+ plugin that leaves mem_zero NULL: an older core reads
//                              host_callback at that offset and refuses it (the layout shift).
//   GEN_DEFECT_MIXTURE         writes the newest SP_Platform struct_size (35) with an older
//                              executor: sizes from two generations, which no header produces.
//   GEN_IMPORTS_NEWER          imports TF_GetDeviceId, a kernels.h getter only cores after
//                              TensorFlow 2.10 export: older cores refuse it at dlopen.
//   GEN_IMPORTS_VARIABLE_OPS   imports TF_AssignUpdateVariable (kernels_experimental.h), as
//                              Vulten does: 2.15.1 exports it, 2.21.0 does not (newest refuses).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "../support/host_memory_callbacks.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"
#if defined(GEN_IMPORTS_NEWER)
#include "tensorflow/c/kernels.h"
#endif
#if defined(GEN_IMPORTS_VARIABLE_OPS)
#include "tensorflow/c/kernels_experimental.h"
#endif

#if defined(GEN_HAS_FILLS)
static_assert(SP_STREAMEXECUTOR_STRUCT_SIZE == 288 &&
              offsetof(SP_StreamExecutor, host_callback) == 280);
#else
static_assert(SP_STREAMEXECUTOR_STRUCT_SIZE == 264 &&
              offsetof(SP_StreamExecutor, host_callback) == 256);
#endif

namespace {

constexpr int kDevices = 1;
constexpr std::int64_t kCapacity = std::int64_t{1} << 30;
constexpr std::size_t kAlignment = 64;

using namespace conformance::test_support::host_memory;  // Ok and the copy/fill/wait callbacks

struct DeviceState {
  std::mutex mutex;
  std::unordered_map<void*, std::uint64_t> live;
  std::int64_t num_allocs = 0, bytes_in_use = 0, peak_bytes_in_use = 0, largest_alloc = 0;
};
DeviceState g_device;

void* AlignedBytes(std::uint64_t size) {
  const std::uint64_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  return std::aligned_alloc(kAlignment, rounded < kAlignment ? kAlignment : rounded);
}

void Allocate(const SP_Device*, uint64_t size, int64_t, SP_DeviceMemoryBase* mem) {
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = nullptr;
  mem->size = 0;
  std::lock_guard lock(g_device.mutex);
  if (size > static_cast<std::uint64_t>(kCapacity - g_device.bytes_in_use)) return;
  void* bytes = AlignedBytes(size);
  if (bytes == nullptr) return;
  g_device.live[bytes] = size;
  g_device.num_allocs += 1;
  g_device.bytes_in_use += static_cast<std::int64_t>(size);
  if (g_device.bytes_in_use > g_device.peak_bytes_in_use)
    g_device.peak_bytes_in_use = g_device.bytes_in_use;
  if (static_cast<std::int64_t>(size) > g_device.largest_alloc)
    g_device.largest_alloc = static_cast<std::int64_t>(size);
  mem->opaque = bytes;
  mem->size = size;
}

void Deallocate(const SP_Device*, SP_DeviceMemoryBase* mem) {
  if (mem->opaque == nullptr) return;
  std::lock_guard lock(g_device.mutex);
  auto found = g_device.live.find(mem->opaque);
  if (found == g_device.live.end()) return;
  g_device.bytes_in_use -= static_cast<std::int64_t>(found->second);
  g_device.live.erase(found);
  std::free(mem->opaque);
}

void* HostAllocate(const SP_Device*, uint64_t size) {
  return size == 0 ? nullptr : AlignedBytes(size);
}
void HostDeallocate(const SP_Device*, void* mem) { std::free(mem); }

TF_Bool AllocatorStats(const SP_Device*, SP_AllocatorStats* stats) {
  std::lock_guard lock(g_device.mutex);
  stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  stats->num_allocs = g_device.num_allocs;
  stats->bytes_in_use = g_device.bytes_in_use;
  stats->peak_bytes_in_use = g_device.peak_bytes_in_use;
  stats->largest_alloc_size = g_device.largest_alloc;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = kCapacity;
  return true;
}

TF_Bool MemoryUsage(const SP_Device*, int64_t* free_bytes, int64_t* total_bytes) {
  std::lock_guard lock(g_device.mutex);
  *total_bytes = kCapacity;
  *free_bytes = kCapacity - g_device.bytes_in_use;
  return true;
}

// Streams and events: every operation has finished when its call returns.
struct StreamState {
  std::mutex mutex;
  TF_Code error = TF_OK;  // the first error a host callback reported
};
struct EventState {
  bool recorded = false;
};

void CreateStream(const SP_Device*, SP_Stream* stream, TF_Status* status) {
  *stream = reinterpret_cast<SP_Stream>(new StreamState);
  Ok(status);
}
void DestroyStream(const SP_Device*, SP_Stream stream) {
  delete reinterpret_cast<StreamState*>(stream);
}
void CreateEvent(const SP_Device*, SP_Event* event, TF_Status* status) {
  *event = reinterpret_cast<SP_Event>(new EventState);
  Ok(status);
}
void DestroyEvent(const SP_Device*, SP_Event event) { delete reinterpret_cast<EventState*>(event); }
SE_EventStatus EventStatus(const SP_Device*, SP_Event event) {
  return reinterpret_cast<EventState*>(event)->recorded ? SE_EVENT_COMPLETE : SE_EVENT_UNKNOWN;
}
void RecordEvent(const SP_Device*, SP_Stream, SP_Event event, TF_Status* status) {
  reinterpret_cast<EventState*>(event)->recorded = true;
  Ok(status);
}
void StreamStatus(const SP_Device*, SP_Stream stream, TF_Status* status) {
  auto* state = reinterpret_cast<StreamState*>(stream);
  std::lock_guard lock(state->mutex);
  if (state->error != TF_OK) {
    TF_SetStatus(status, state->error, "generation plugin: a host callback on this stream failed");
    return;
  }
  Ok(status);
}

TF_Bool HostCallback(const SP_Device*, SP_Stream stream, SE_StatusCallbackFn callback, void* arg) {
#if defined(GEN_DEFECT_LOST_CALLBACK)
  (void)stream;
  (void)callback;
  (void)arg;
  return true;  // the defect: accepted, never run
#else
  TF_Status* status = TF_NewStatus();
  callback(arg, status);
  if (TF_GetCode(status) != TF_OK) {
    auto* state = reinterpret_cast<StreamState*>(stream);
    std::lock_guard lock(state->mutex);
    if (state->error == TF_OK) state->error = TF_GetCode(status);
  }
  TF_DeleteStatus(status);
  return true;
#endif
}

struct TimerState {
  std::uint64_t nanoseconds = 0;
};
void CreateTimer(const SP_Device*, SP_Timer* timer, TF_Status* status) {
  *timer = reinterpret_cast<SP_Timer>(new TimerState);
  Ok(status);
}
void DestroyTimer(const SP_Device*, SP_Timer timer) { delete reinterpret_cast<TimerState*>(timer); }
void TimerMark(const SP_Device*, SP_Stream, SP_Timer, TF_Status* status) { Ok(status); }
uint64_t Nanoseconds(SP_Timer timer) { return reinterpret_cast<TimerState*>(timer)->nanoseconds; }

void CreateStreamExecutor(const SP_Platform*, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  SP_StreamExecutor* se = params->stream_executor;
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->allocate = Allocate;
  se->deallocate = Deallocate;
  se->host_memory_allocate = HostAllocate;
  se->host_memory_deallocate = HostDeallocate;
  se->get_allocator_stats = AllocatorStats;
  se->device_memory_usage = MemoryUsage;
  se->create_stream = CreateStream;
  se->destroy_stream = DestroyStream;
  se->create_stream_dependency = StreamDependency;
  se->get_stream_status = StreamStatus;
  se->create_event = CreateEvent;
  se->destroy_event = DestroyEvent;
  se->get_event_status = EventStatus;
  se->record_event = RecordEvent;
  se->wait_for_event = WaitForEvent;
  se->create_timer = CreateTimer;
  se->destroy_timer = DestroyTimer;
  se->start_timer = TimerMark;
  se->stop_timer = TimerMark;
  se->memcpy_dtoh = CopyDtoH;
  se->memcpy_htod = CopyHtoD;
  se->memcpy_dtod = CopyDtoD;
  se->sync_memcpy_dtoh = SyncDtoH;
  se->sync_memcpy_htod = SyncHtoD;
  se->sync_memcpy_dtod = SyncDtoD;
  se->block_host_for_event = WaitEvent;
  se->block_host_until_done = WaitStream;
  se->synchronize_all_activity = WaitDevice;
#if defined(GEN_HAS_FILLS) && !defined(GEN_DEFECT_NO_MEM_ZERO)
  se->mem_zero = Zero;
#endif
#if defined(GEN_HAS_FILLS)
  se->memset = Fill8;
  se->memset32 = Fill32;
#endif
  se->host_callback = HostCallback;
  Ok(status);
}
void DestroyStreamExecutor(const SP_Platform*, SP_StreamExecutor*) {}

void DeviceCount(const SP_Platform*, int* count, TF_Status* status) {
  *count = kDevices;
  Ok(status);
}
void CreateDevice(const SP_Platform*, SE_CreateDeviceParams* params, TF_Status* status) {
  if (params->ordinal != 0) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "generation plugin: no such device");
    return;
  }
  params->device->struct_size = SP_DEVICE_STRUCT_SIZE;
  params->device->ordinal = 0;
  params->device->device_handle = &g_device;
  params->device->hardware_name = "GEN host device";
  params->device->device_vendor = "plugin_conformance tests";
  Ok(status);
}
void DestroyDevice(const SP_Platform*, SP_Device*) {}
void CreateDeviceFns(const SP_Platform*, SE_CreateDeviceFnsParams* params, TF_Status* status) {
  params->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  Ok(status);
}
void DestroyDeviceFns(const SP_Platform*, SP_DeviceFns*) {}
void CreateTimerFns(const SP_Platform*, SP_TimerFns* timer_fns, TF_Status* status) {
  timer_fns->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  timer_fns->nanoseconds = Nanoseconds;
  Ok(status);
}
void DestroyTimerFns(const SP_Platform*, SP_TimerFns*) {}
void DestroyPlatform(SP_Platform*) {}
void DestroyPlatformFns(SP_PlatformFns*) {}

}  // namespace

#if defined(GEN_IMPORTS_NEWER)
// Never called: the import alone decides whether the plugin loads.
extern "C" __attribute__((visibility("default"))) int GenDeviceIdOf(TF_OpKernelContext* context) {
  return TF_GetDeviceId(context);
}
#endif

#if defined(GEN_IMPORTS_VARIABLE_OPS)
// Never called: the import alone decides whether the plugin loads.
extern "C" __attribute__((visibility("default"))) void GenAssignAdd(TF_OpKernelContext* context,
                                                                    TF_Status* status) {
  TF_AssignUpdateVariable(context, 0, 1, 0, 0, nullptr, nullptr, status);
}
#endif

// A kernel module, even an empty one: TensorFlow 2.10 refuses a plugin without TF_InitKernel
// (load.modules.kernels, measured on 2.10.1), and this plugin stands for one that loads there.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {}

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  SP_Platform* platform = params->platform;
#if defined(GEN_DEFECT_MIXTURE)
  platform->struct_size = 35;  // the newest SP_Platform size, with an older executor
#else
  platform->struct_size = SP_PLATFORM_STRUCT_SIZE;
#endif
  platform->name = "GEN";
  platform->type = "GEN_DEVICE";
  platform->supports_unified_memory = 0;

  SP_PlatformFns* fns = params->platform_fns;
  fns->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  fns->get_device_count = DeviceCount;
  fns->create_device = CreateDevice;
  fns->destroy_device = DestroyDevice;
  fns->create_device_fns = CreateDeviceFns;
  fns->destroy_device_fns = DestroyDeviceFns;
  fns->create_stream_executor = CreateStreamExecutor;
  fns->destroy_stream_executor = DestroyStreamExecutor;
  fns->create_timer_fns = CreateTimerFns;
  fns->destroy_timer_fns = DestroyTimerFns;
  params->destroy_platform = DestroyPlatform;
  params->destroy_platform_fns = DestroyPlatformFns;
  Ok(status);
}
