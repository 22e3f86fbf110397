// A family of plugins that TensorFlow is content with, each following one pattern real plugins
// use (TensorFlow's own test plugin, the PluggableDevice tutorial sample, vendor plugins). The
// suite must find no failure in any of them: legal_patterns_test runs plugin_conformance on each.
//
// The device: host memory, every operation done synchronously inside its call (as the tutorial
// sample does), two devices. One -DLEGAL_<PATTERN> per variant switches the pattern on:
//
//   LEGAL_HANDLE_NULL         SP_Device.device_handle stays NULL; device state lives in a table
//                             indexed by ordinal.
//   LEGAL_NULL_STREAMS        create_stream / create_event leave the handle as TensorFlow
//                             pre-filled it (NULL) and no callback ever looks at a handle.
//   LEGAL_NO_ALLOCATOR_STATS  get_allocator_stats returns false (device_memory_usage must answer:
//                             TensorFlow refuses a device whose memory it cannot query, see
//                             load_defects/memory_usage_fails)
//                             ("not available", which the header allows).
//   LEGAL_SYNCHRONOUS         real, distinct stream and event objects; everything synchronous.
//   LEGAL_STATELESS_EVENTS    real event objects, but get_event_status says COMPLETE for every
//                             event, recorded or not (Vulten's stub): harmless while every call
//                             finishes before it returns, so only a [stricter] warning.
//   LEGAL_OPTIONAL_NULL       every optional field left NULL: block_host_until_done,
//                             sync_memcpy_dtod, unified memory, SP_DeviceFns getters, SP_Device
//                             strings, ext pointers.
//   LEGAL_STRUCT_SIZE_PREFILLED  no struct_size is ever written (TensorFlow pre-fills them).
//   LEGAL_TF25_HEADERS        built against TensorFlow 2.5/2.6 headers: a 264-byte
//                             SP_StreamExecutor without mem_zero/memset/memset32, host_callback
//                             at offset 256, SP_Platform ending at use_bfc_allocator (34); run
//                             with --profile tf2.5.
//   LEGAL_TF27_HEADERS        built against TensorFlow 2.7/2.8 headers (the tensorflow-cpu 2.7.4
//                             wheel's layout): the 288-byte SP_StreamExecutor of newer releases,
//                             SP_Platform still ending at use_bfc_allocator (34, no
//                             force_memory_growth); run with --profile tf2.7.
//
// Not legal, for root_causes_test: DEFECTS_BEHIND_NULL_STREAMS is LEGAL_NULL_STREAMS plus two
// independent defects, host_callback returning false and host_memory_allocate returning NULL.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "../support/host_memory_callbacks.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#if defined(DEFECTS_BEHIND_NULL_STREAMS)
#define LEGAL_NULL_STREAMS 1
#endif

namespace {

constexpr int kDevices = 2;
constexpr std::int64_t kCapacity = std::int64_t{1} << 30;  // 1 GiB per device
constexpr std::size_t kAlignment = 64;                     // TensorFlow's allocator alignment

#if defined(LEGAL_STRUCT_SIZE_PREFILLED)
#define SET_STRUCT_SIZE(object, value) (void)(object)
#else
#define SET_STRUCT_SIZE(object, value) (object)->struct_size = (value)
#endif

using namespace conformance::test_support::host_memory;  // Ok and the copy/fill/wait callbacks

// ---- Devices: state per ordinal, found without device_handle when that pattern is on ---------

struct DeviceState {
  int ordinal = 0;
  std::mutex mutex;
  std::unordered_map<void*, std::uint64_t> live;  // allocation -> size
  std::int64_t num_allocs = 0, bytes_in_use = 0, peak_bytes_in_use = 0, largest_alloc = 0;
};

DeviceState g_devices[kDevices];
[[maybe_unused]] const char* const kHardwareNames[kDevices] = {"LEGAL host device 0",
                                                               "LEGAL host device 1"};

DeviceState& StateOf(const SP_Device* device) {
#if defined(LEGAL_HANDLE_NULL)
  return g_devices[device->ordinal];  // the pattern: state kept by ordinal, handle unused
#else
  return *static_cast<DeviceState*>(device->device_handle);
#endif
}

void* AlignedBytes(std::uint64_t size) {
  const std::uint64_t rounded =
      std::max<std::uint64_t>((size + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
  return std::aligned_alloc(kAlignment, rounded);
}

// ---- Memory ----------------------------------------------------------------------------------

void Allocate(const SP_Device* device, uint64_t size, int64_t, SP_DeviceMemoryBase* mem) {
  SET_STRUCT_SIZE(mem, SP_DEVICE_MEMORY_BASE_STRUCT_SIZE);
  mem->opaque = nullptr;
  mem->size = 0;
  DeviceState& state = StateOf(device);
  std::lock_guard lock(state.mutex);
  if (size > static_cast<std::uint64_t>(kCapacity - state.bytes_in_use))
    return;  // out of memory: NULL
  void* bytes = AlignedBytes(size);
  if (bytes == nullptr) return;
  state.live[bytes] = size;
  state.num_allocs += 1;
  state.bytes_in_use += static_cast<std::int64_t>(size);
  state.peak_bytes_in_use = std::max(state.peak_bytes_in_use, state.bytes_in_use);
  state.largest_alloc = std::max(state.largest_alloc, static_cast<std::int64_t>(size));
  mem->opaque = bytes;
  mem->size = size;
}

void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
  if (mem->opaque == nullptr) return;
  DeviceState& state = StateOf(device);
  std::lock_guard lock(state.mutex);
  auto found = state.live.find(mem->opaque);
  if (found == state.live.end()) return;
  state.bytes_in_use -= static_cast<std::int64_t>(found->second);
  state.live.erase(found);
  std::free(mem->opaque);
}

void* HostAllocate(const SP_Device*, uint64_t size) {
#if defined(DEFECTS_BEHIND_NULL_STREAMS)
  (void)size;
  return nullptr;
#else
  return size == 0 ? nullptr : AlignedBytes(size);
#endif
}
void HostDeallocate(const SP_Device*, void* mem) { std::free(mem); }

TF_Bool AllocatorStats(const SP_Device* device, SP_AllocatorStats* stats) {
#if defined(LEGAL_NO_ALLOCATOR_STATS)
  (void)device;
  (void)stats;
  return false;
#else
  DeviceState& state = StateOf(device);
  std::lock_guard lock(state.mutex);
  SET_STRUCT_SIZE(stats, SP_ALLOCATORSTATS_STRUCT_SIZE);
  stats->num_allocs = state.num_allocs;
  stats->bytes_in_use = state.bytes_in_use;
  stats->peak_bytes_in_use = state.peak_bytes_in_use;
  stats->largest_alloc_size = state.largest_alloc;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = kCapacity;
  return true;
#endif
}

TF_Bool MemoryUsage(const SP_Device* device, int64_t* free_bytes, int64_t* total_bytes) {
  DeviceState& state = StateOf(device);
  std::lock_guard lock(state.mutex);
  *total_bytes = kCapacity;
  *free_bytes = kCapacity - state.bytes_in_use;
  return true;
}

// ---- Streams and events: everything has finished when its call returns ---------------------

struct StreamState {
  std::mutex mutex;
  TF_Code error = TF_OK;  // the first error a host callback reported on this stream
};
struct EventState {
  bool recorded = false;
};

void CreateStream(const SP_Device*, SP_Stream* stream, TF_Status* status) {
#if defined(LEGAL_NULL_STREAMS)
  (void)stream;  // the tutorial sample's way: the handle stays what TensorFlow pre-filled
#else
  *stream = reinterpret_cast<SP_Stream>(new StreamState);
#endif
  Ok(status);
}
void DestroyStream(const SP_Device*, SP_Stream stream) {
  delete reinterpret_cast<StreamState*>(stream);
}

void CreateEvent(const SP_Device*, SP_Event* event, TF_Status* status) {
#if defined(LEGAL_NULL_STREAMS)
  (void)event;
#else
  *event = reinterpret_cast<SP_Event>(new EventState);
#endif
  Ok(status);
}
void DestroyEvent(const SP_Device*, SP_Event event) { delete reinterpret_cast<EventState*>(event); }

SE_EventStatus EventStatus(const SP_Device*, SP_Event event) {
#if defined(LEGAL_STATELESS_EVENTS)
  (void)event;
  return SE_EVENT_COMPLETE;  // the pattern: no state looked at, every event done
#endif
  auto* state = reinterpret_cast<EventState*>(event);
  if (state != nullptr && !state->recorded) return SE_EVENT_UNKNOWN;
  return SE_EVENT_COMPLETE;  // synchronous: recorded work is always done
}

void RecordEvent(const SP_Device*, SP_Stream, SP_Event event, TF_Status* status) {
  if (auto* state = reinterpret_cast<EventState*>(event)) state->recorded = true;
  Ok(status);
}

void StreamStatus(const SP_Device*, SP_Stream stream, TF_Status* status) {
  auto* state = reinterpret_cast<StreamState*>(stream);
  if (state != nullptr) {
    std::lock_guard lock(state->mutex);
    if (state->error != TF_OK) {
      TF_SetStatus(status, state->error, "legal plugin: a host callback on this stream failed");
      return;
    }
  }
  Ok(status);
}

TF_Bool HostCallback(const SP_Device*, SP_Stream stream, SE_StatusCallbackFn callback, void* arg) {
#if defined(DEFECTS_BEHIND_NULL_STREAMS)
  (void)stream;
  (void)callback;
  (void)arg;
  return false;
#endif
  TF_Status* status = TF_NewStatus();
  callback(arg, status);
  if (auto* state = reinterpret_cast<StreamState*>(stream);
      state != nullptr && TF_GetCode(status) != TF_OK) {
    std::lock_guard lock(state->mutex);
    if (state->error == TF_OK) state->error = TF_GetCode(status);
  }
  TF_DeleteStatus(status);
  return true;
}

// Timers: required by TensorFlow 2.5 to 2.10 (the tf2.5/tf2.7 variants); harmless for newer cores.
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

// ---- The stream executor table, in the layout of the headers this variant was built against --

#if defined(LEGAL_TF25_HEADERS)
// TensorFlow 2.5/2.6 SP_StreamExecutor (spec §2.8): no mem_zero/memset/memset32, host_callback at
// 256.
struct StreamExecutor25 {
  size_t struct_size;
  void* ext;
  decltype(SP_StreamExecutor::allocate) allocate;
  decltype(SP_StreamExecutor::deallocate) deallocate;
  decltype(SP_StreamExecutor::host_memory_allocate) host_memory_allocate;
  decltype(SP_StreamExecutor::host_memory_deallocate) host_memory_deallocate;
  decltype(SP_StreamExecutor::unified_memory_allocate) unified_memory_allocate;
  decltype(SP_StreamExecutor::unified_memory_deallocate) unified_memory_deallocate;
  decltype(SP_StreamExecutor::get_allocator_stats) get_allocator_stats;
  decltype(SP_StreamExecutor::device_memory_usage) device_memory_usage;
  decltype(SP_StreamExecutor::create_stream) create_stream;
  decltype(SP_StreamExecutor::destroy_stream) destroy_stream;
  decltype(SP_StreamExecutor::create_stream_dependency) create_stream_dependency;
  decltype(SP_StreamExecutor::get_stream_status) get_stream_status;
  decltype(SP_StreamExecutor::create_event) create_event;
  decltype(SP_StreamExecutor::destroy_event) destroy_event;
  decltype(SP_StreamExecutor::get_event_status) get_event_status;
  decltype(SP_StreamExecutor::record_event) record_event;
  decltype(SP_StreamExecutor::wait_for_event) wait_for_event;
  decltype(SP_StreamExecutor::create_timer) create_timer;
  decltype(SP_StreamExecutor::destroy_timer) destroy_timer;
  decltype(SP_StreamExecutor::start_timer) start_timer;
  decltype(SP_StreamExecutor::stop_timer) stop_timer;
  decltype(SP_StreamExecutor::memcpy_dtoh) memcpy_dtoh;
  decltype(SP_StreamExecutor::memcpy_htod) memcpy_htod;
  decltype(SP_StreamExecutor::memcpy_dtod) memcpy_dtod;
  decltype(SP_StreamExecutor::sync_memcpy_dtoh) sync_memcpy_dtoh;
  decltype(SP_StreamExecutor::sync_memcpy_htod) sync_memcpy_htod;
  decltype(SP_StreamExecutor::sync_memcpy_dtod) sync_memcpy_dtod;
  decltype(SP_StreamExecutor::block_host_for_event) block_host_for_event;
  decltype(SP_StreamExecutor::block_host_until_done) block_host_until_done;
  decltype(SP_StreamExecutor::synchronize_all_activity) synchronize_all_activity;
  decltype(SP_StreamExecutor::host_callback) host_callback;
};
static_assert(sizeof(StreamExecutor25) == 264 && offsetof(StreamExecutor25, host_callback) == 256);
using StreamExecutorTable = StreamExecutor25;
[[maybe_unused]] constexpr std::size_t kStreamExecutorStructSize = 264;
[[maybe_unused]] constexpr std::size_t kPlatformStructSize = 34;  // ends at use_bfc_allocator
#elif defined(LEGAL_TF27_HEADERS)
// TensorFlow 2.7/2.8: the executor of newer releases; SP_Platform ends at use_bfc_allocator.
using StreamExecutorTable = SP_StreamExecutor;
[[maybe_unused]] constexpr std::size_t kStreamExecutorStructSize = SP_STREAMEXECUTOR_STRUCT_SIZE;
[[maybe_unused]] constexpr std::size_t kPlatformStructSize = 34;  // ends at use_bfc_allocator
static_assert(kPlatformStructSize == offsetof(SP_Platform, force_memory_growth));
#else
using StreamExecutorTable = SP_StreamExecutor;
[[maybe_unused]] constexpr std::size_t kStreamExecutorStructSize = SP_STREAMEXECUTOR_STRUCT_SIZE;
[[maybe_unused]] constexpr std::size_t kPlatformStructSize = SP_PLATFORM_STRUCT_SIZE;
#endif

void FillStreamExecutor(StreamExecutorTable* se) {
  SET_STRUCT_SIZE(se, kStreamExecutorStructSize);
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
  se->block_host_for_event = WaitEvent;
  se->synchronize_all_activity = WaitDevice;
  se->host_callback = HostCallback;
#if !defined(LEGAL_OPTIONAL_NULL)
  se->sync_memcpy_dtod = SyncDtoD;
  se->block_host_until_done = WaitStream;
#endif
#if !defined(LEGAL_TF25_HEADERS)
  se->mem_zero = Zero;
  se->memset = Fill8;
  se->memset32 = Fill32;
#endif
}

// ---- Platform ---------------------------------------------------------------------------------

void DeviceCount(const SP_Platform*, int* count, TF_Status* status) {
  *count = kDevices;
  Ok(status);
}

void CreateDevice(const SP_Platform*, SE_CreateDeviceParams* params, TF_Status* status) {
  if (params->ordinal < 0 || params->ordinal >= kDevices) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "legal plugin: no such device");
    return;
  }
  SP_Device* device = params->device;
  SET_STRUCT_SIZE(device, SP_DEVICE_STRUCT_SIZE);
  device->ordinal = params->ordinal;
  g_devices[params->ordinal].ordinal = params->ordinal;
#if !defined(LEGAL_HANDLE_NULL)
  device->device_handle = &g_devices[params->ordinal];
#endif
#if !defined(LEGAL_OPTIONAL_NULL)
  device->hardware_name = kHardwareNames[params->ordinal];
  device->device_vendor = "plugin_conformance tests";
#endif
  Ok(status);
}
void DestroyDevice(const SP_Platform*, SP_Device*) {}

[[maybe_unused]] int32_t NumaNode(const SP_Device*) { return -1; }
[[maybe_unused]] int64_t MemoryBandwidth(const SP_Device*) { return -1; }

void CreateDeviceFns(const SP_Platform*, SE_CreateDeviceFnsParams* params, TF_Status* status) {
  SET_STRUCT_SIZE(params->device_fns, SP_DEVICE_FNS_STRUCT_SIZE);
#if !defined(LEGAL_OPTIONAL_NULL)
  params->device_fns->get_numa_node = NumaNode;
  params->device_fns->get_memory_bandwidth = MemoryBandwidth;
#endif
  Ok(status);
}
void DestroyDeviceFns(const SP_Platform*, SP_DeviceFns*) {}

void CreateStreamExecutor(const SP_Platform*, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  FillStreamExecutor(reinterpret_cast<StreamExecutorTable*>(params->stream_executor));
  Ok(status);
}
void DestroyStreamExecutor(const SP_Platform*, SP_StreamExecutor*) {}

void CreateTimerFns(const SP_Platform*, SP_TimerFns* timer_fns, TF_Status* status) {
  SET_STRUCT_SIZE(timer_fns, SP_TIMER_FNS_STRUCT_SIZE);
  timer_fns->nanoseconds = Nanoseconds;
  Ok(status);
}
void DestroyTimerFns(const SP_Platform*, SP_TimerFns*) {}
void DestroyPlatform(SP_Platform*) {}
void DestroyPlatformFns(SP_PlatformFns*) {}

}  // namespace

// A kernel module, even an empty one: TensorFlow 2.10 refuses a plugin without TF_InitKernel
// (load.modules.kernels, measured on 2.10.1), and this plugin stands for one that loads there.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {}

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  SP_Platform* platform = params->platform;
  SET_STRUCT_SIZE(platform, kPlatformStructSize);
  platform->name = "LEGAL";
  platform->type = "LEGAL_DEVICE";
  platform->supports_unified_memory = 0;

  SP_PlatformFns* fns = params->platform_fns;
  SET_STRUCT_SIZE(fns, SP_PLATFORM_FNS_STRUCT_SIZE);
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
