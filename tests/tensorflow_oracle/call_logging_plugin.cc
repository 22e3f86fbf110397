// A PluggableDevice plugin that is only a wiretap: it loads another plugin (the reference
// plugin by default), forwards every entry point and every SP_* callback to it, and writes one
// line per call with the argument patterns that matter for what a plugin must support
// (sizes, memory spaces, interior pointers, which copy flavour, event states seen...).
// tests/tensorflow_oracle/record_calls.py loads it into real TensorFlow and summarises the log into
// docs/tensorflow/calls.md: the calls TensorFlow really makes.
//
// Environment: CALL_LOG_FILE (required: the log, appended to), CALL_LOG_TARGET (the plugin to
// wrap; default: the reference plugin this build made).
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef CALL_LOG_DEFAULT_TARGET
#define CALL_LOG_DEFAULT_TARGET "libreference_plugin.so"
#endif

#define CALL_LOG_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

int LogFd() {
  static const int fd = [] {
    const char* path = std::getenv("CALL_LOG_FILE");
    return path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : 2;
  }();
  return fd;
}

// One line per call, written with one write(2) so threads never interleave inside a line.
// printf-style on purpose: the format attribute has the compiler check every log line.
// NOLINTNEXTLINE(cert-dcl50-cpp)
__attribute__((format(printf, 1, 2))) void Log(const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(line, sizeof line - 1, format, args);
  va_end(args);
  if (n < 0) return;
  if (n > static_cast<int>(sizeof line) - 2) n = static_cast<int>(sizeof line) - 2;
  line[n] = '\n';
  [[maybe_unused]] const ssize_t written = write(LogFd(), line, static_cast<std::size_t>(n) + 1);
}

const char* CodeName(const TF_Status* status) {
  if (status == nullptr) return "null";
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int code = TF_GetCode(status);
  return code >= 0 && code <= 16 ? kNames[code] : "?";
}

// Live device allocations (base -> size), to tell an allocation's own address from a pointer
// into its middle (a slice) in copies and fills.
class Allocations {
  struct Allocation {
    std::uint64_t size;
    int ordinal;
  };

 public:
  void Add(const void* base, std::uint64_t size, int ordinal) {
    std::lock_guard lock(mutex_);
    live_[reinterpret_cast<std::uintptr_t>(base)] = {size, ordinal};
  }
  void Remove(const void* base) {
    std::lock_guard lock(mutex_);
    live_.erase(reinterpret_cast<std::uintptr_t>(base));
  }
  // "base@D:VIEW/SIZE" (an allocation's own address), "interior@D+OFFSET:VIEW/SIZE" (inside
  // one) or "unknown", where D is the device that allocated it, VIEW the SP_DeviceMemoryBase's
  // size and SIZE the allocation's.
  std::string Describe(const SP_DeviceMemoryBase* memory) {
    if (memory == nullptr) return "null";
    const auto address = reinterpret_cast<std::uintptr_t>(memory->opaque);
    std::lock_guard lock(mutex_);
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return "unknown";
    --it;
    const auto [size, ordinal] = it->second;
    if (address >= it->first + (size == 0 ? 1 : size)) return "unknown";
    const std::uint64_t offset = address - it->first;
    const std::string device = "@" + std::to_string(ordinal);
    const std::string sizes = ":" + std::to_string(memory->size) + "/" + std::to_string(size);
    return offset == 0 ? "base" + device + sizes
                       : "interior" + device + "+" + std::to_string(offset) + sizes;
  }

 private:
  std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> live_;
};

Allocations& Live() {
  static Allocations allocations;
  return allocations;
}

// Host memory the plugin handed out through host_memory_allocate, to see whether TensorFlow
// copies from/to pinned host buffers.
class HostBuffers {
 public:
  void Add(const void* p, std::uint64_t size) {
    std::lock_guard lock(mutex_);
    live_[reinterpret_cast<std::uintptr_t>(p)] = size;
  }
  void Remove(const void* p) {
    std::lock_guard lock(mutex_);
    live_.erase(reinterpret_cast<std::uintptr_t>(p));
  }
  const char* Describe(const void* p) {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard lock(mutex_);
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return "pageable";
    --it;
    return address < it->first + it->second ? "pinned" : "pageable";
  }

 private:
  std::mutex mutex_;
  std::map<std::uintptr_t, std::uint64_t> live_;
};

HostBuffers& Pinned() {
  static HostBuffers buffers;
  return buffers;
}

// Which device created each stream, to see dependencies and copies that span two devices.
class StreamOwners {
 public:
  void Add(SP_Stream stream, int ordinal) {
    std::lock_guard lock(mutex_);
    owner_[stream] = ordinal;
  }
  int Find(SP_Stream stream) {
    std::lock_guard lock(mutex_);
    auto it = owner_.find(stream);
    return it == owner_.end() ? -1 : it->second;
  }

 private:
  std::mutex mutex_;
  std::map<SP_Stream, int> owner_;
};

StreamOwners& Owners() {
  static StreamOwners owners;
  return owners;
}

// The wrapped plugin's tables (one platform; the same callbacks for every device).
struct Wrapped {
  void* library = nullptr;
  SP_PlatformFns platform_fns{};
  SP_DeviceFns device_fns{};
  SP_StreamExecutor stream_executor{};
  SP_TimerFns timer_fns{};
  void (*destroy_platform)(SP_Platform*) = nullptr;
  void (*destroy_platform_fns)(SP_PlatformFns*) = nullptr;
} g;

void* Target(const char* symbol) {
  if (g.library == nullptr) {
    const char* path = std::getenv("CALL_LOG_TARGET");
    if (path == nullptr || *path == '\0') path = CALL_LOG_DEFAULT_TARGET;
    g.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (g.library == nullptr) {
      Log("wrapper cannot_load %s", dlerror());
      return nullptr;
    }
  }
  return dlsym(g.library, symbol);
}

// --- SP_StreamExecutor ---------------------------------------------------------------------

void Allocate(const SP_Device* device, std::uint64_t size, std::int64_t memory_space,
              SP_DeviceMemoryBase* mem) {
  const std::size_t prefilled = mem ? mem->struct_size : 0;
  g.stream_executor.allocate(device, size, memory_space, mem);
  if (mem && mem->opaque) Live().Add(mem->opaque, mem->size, device->ordinal);
  Log("allocate ordinal=%d size=%" PRIu64 " memory_space=%" PRId64 " mem_struct_size=%zu ok=%d",
      device->ordinal, size, memory_space, prefilled, mem && mem->opaque ? 1 : 0);
}

void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  Log("deallocate ordinal=%d target=%s", device->ordinal, Live().Describe(memory).c_str());
  if (memory) Live().Remove(memory->opaque);
  g.stream_executor.deallocate(device, memory);
}

void* HostMemoryAllocate(const SP_Device* device, std::uint64_t size) {
  void* p = g.stream_executor.host_memory_allocate(device, size);
  if (p) Pinned().Add(p, size);
  Log("host_memory_allocate ordinal=%d size=%" PRIu64 " ok=%d", device->ordinal, size, p ? 1 : 0);
  return p;
}

void HostMemoryDeallocate(const SP_Device* device, void* mem) {
  Log("host_memory_deallocate ordinal=%d", device->ordinal);
  Pinned().Remove(mem);
  g.stream_executor.host_memory_deallocate(device, mem);
}

void* UnifiedMemoryAllocate(const SP_Device* device, std::uint64_t bytes) {
  Log("unified_memory_allocate ordinal=%d size=%" PRIu64, device->ordinal, bytes);
  return g.stream_executor.unified_memory_allocate(device, bytes);
}

void UnifiedMemoryDeallocate(const SP_Device* device, void* location) {
  Log("unified_memory_deallocate ordinal=%d", device->ordinal);
  g.stream_executor.unified_memory_deallocate(device, location);
}

TF_Bool GetAllocatorStats(const SP_Device* device, SP_AllocatorStats* stats) {
  const std::size_t prefilled = stats ? stats->struct_size : 0;
  const TF_Bool result = g.stream_executor.get_allocator_stats(device, stats);
  Log("get_allocator_stats ordinal=%d stats_struct_size=%zu result=%d", device->ordinal, prefilled,
      result);
  return result;
}

TF_Bool DeviceMemoryUsage(const SP_Device* device, std::int64_t* free, std::int64_t* total) {
  const TF_Bool result = g.stream_executor.device_memory_usage(device, free, total);
  Log("device_memory_usage ordinal=%d result=%d", device->ordinal, result);
  return result;
}

void CreateStream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  g.stream_executor.create_stream(device, stream, status);
  if (stream != nullptr && TF_GetCode(status) == TF_OK) Owners().Add(*stream, device->ordinal);
  Log("create_stream ordinal=%d stream=%p status=%s", device->ordinal,
      static_cast<void*>(stream ? *stream : nullptr), CodeName(status));
}

void DestroyStream(const SP_Device* device, SP_Stream stream) {
  Log("destroy_stream ordinal=%d stream=%p", device->ordinal, static_cast<void*>(stream));
  g.stream_executor.destroy_stream(device, stream);
}

void CreateStreamDependency(const SP_Device* device, SP_Stream dependent, SP_Stream other,
                            TF_Status* status) {
  g.stream_executor.create_stream_dependency(device, dependent, other, status);
  Log("create_stream_dependency ordinal=%d same_stream=%d dependent_ordinal=%d other_ordinal=%d "
      "status=%s",
      device->ordinal, dependent == other ? 1 : 0, Owners().Find(dependent), Owners().Find(other),
      CodeName(status));
}

void GetStreamStatus(const SP_Device* device, SP_Stream stream, TF_Status* status) {
  g.stream_executor.get_stream_status(device, stream, status);
  Log("get_stream_status ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void CreateEvent(const SP_Device* device, SP_Event* event, TF_Status* status) {
  g.stream_executor.create_event(device, event, status);
  Log("create_event ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void DestroyEvent(const SP_Device* device, SP_Event event) {
  Log("destroy_event ordinal=%d", device->ordinal);
  g.stream_executor.destroy_event(device, event);
}

SE_EventStatus GetEventStatus(const SP_Device* device, SP_Event event) {
  const SE_EventStatus result = g.stream_executor.get_event_status(device, event);
  static const char* const kNames[] = {"UNKNOWN", "ERROR", "PENDING", "COMPLETE"};
  Log("get_event_status ordinal=%d result=%s", device->ordinal,
      result >= 0 && result <= 3 ? kNames[result] : "?");
  return result;
}

void RecordEvent(const SP_Device* device, SP_Stream stream, SP_Event event, TF_Status* status) {
  g.stream_executor.record_event(device, stream, event, status);
  Log("record_event ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void WaitForEvent(const SP_Device* const device, SP_Stream stream, SP_Event event,
                  TF_Status* const status) {
  g.stream_executor.wait_for_event(device, stream, event, status);
  Log("wait_for_event ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void CreateTimer(const SP_Device* device, SP_Timer* timer, TF_Status* status) {
  g.stream_executor.create_timer(device, timer, status);
  Log("create_timer ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void DestroyTimer(const SP_Device* device, SP_Timer timer) {
  Log("destroy_timer ordinal=%d", device->ordinal);
  g.stream_executor.destroy_timer(device, timer);
}

void StartTimer(const SP_Device* device, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  g.stream_executor.start_timer(device, stream, timer, status);
  Log("start_timer ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void StopTimer(const SP_Device* device, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  g.stream_executor.stop_timer(device, stream, timer, status);
  Log("stop_timer ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void MemcpyDtoH(const SP_Device* device, SP_Stream stream, void* host_dst,
                const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  const std::string src = Live().Describe(device_src);
  const char* host = Pinned().Describe(host_dst);
  g.stream_executor.memcpy_dtoh(device, stream, host_dst, device_src, size, status);
  Log("memcpy_dtoh ordinal=%d size=%" PRIu64 " src=%s host=%s status=%s", device->ordinal, size,
      src.c_str(), host, CodeName(status));
}

void MemcpyHtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                const void* host_src, std::uint64_t size, TF_Status* status) {
  const std::string dst = Live().Describe(device_dst);
  const char* host = Pinned().Describe(host_src);
  g.stream_executor.memcpy_htod(device, stream, device_dst, host_src, size, status);
  Log("memcpy_htod ordinal=%d size=%" PRIu64 " dst=%s host=%s status=%s", device->ordinal, size,
      dst.c_str(), host, CodeName(status));
}

void MemcpyDtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  const std::string dst = Live().Describe(device_dst), src = Live().Describe(device_src);
  g.stream_executor.memcpy_dtod(device, stream, device_dst, device_src, size, status);
  // stream_ordinal: which device created the stream (a copy between two devices names both).
  Log("memcpy_dtod ordinal=%d stream_ordinal=%d size=%" PRIu64 " dst=%s src=%s status=%s",
      device->ordinal, Owners().Find(stream), size, dst.c_str(), src.c_str(), CodeName(status));
}

void SyncMemcpyDtoH(const SP_Device* device, void* host_dst, const SP_DeviceMemoryBase* device_src,
                    std::uint64_t size, TF_Status* status) {
  const std::string src = Live().Describe(device_src);
  const char* host = Pinned().Describe(host_dst);
  g.stream_executor.sync_memcpy_dtoh(device, host_dst, device_src, size, status);
  Log("sync_memcpy_dtoh ordinal=%d size=%" PRIu64 " src=%s host=%s status=%s", device->ordinal,
      size, src.c_str(), host, CodeName(status));
}

void SyncMemcpyHtoD(const SP_Device* device, SP_DeviceMemoryBase* device_dst, const void* host_src,
                    std::uint64_t size, TF_Status* status) {
  const std::string dst = Live().Describe(device_dst);
  const char* host = Pinned().Describe(host_src);
  g.stream_executor.sync_memcpy_htod(device, device_dst, host_src, size, status);
  Log("sync_memcpy_htod ordinal=%d size=%" PRIu64 " dst=%s host=%s status=%s", device->ordinal,
      size, dst.c_str(), host, CodeName(status));
}

void SyncMemcpyDtoD(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                    const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  const std::string dst = Live().Describe(device_dst), src = Live().Describe(device_src);
  g.stream_executor.sync_memcpy_dtod(device, device_dst, device_src, size, status);
  Log("sync_memcpy_dtod ordinal=%d size=%" PRIu64 " dst=%s src=%s status=%s", device->ordinal, size,
      dst.c_str(), src.c_str(), CodeName(status));
}

void BlockHostForEvent(const SP_Device* device, SP_Event event, TF_Status* status) {
  g.stream_executor.block_host_for_event(device, event, status);
  Log("block_host_for_event ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void BlockHostUntilDone(const SP_Device* device, SP_Stream stream, TF_Status* status) {
  g.stream_executor.block_host_until_done(device, stream, status);
  Log("block_host_until_done ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void SynchronizeAllActivity(const SP_Device* device, TF_Status* status) {
  g.stream_executor.synchronize_all_activity(device, status);
  Log("synchronize_all_activity ordinal=%d status=%s", device->ordinal, CodeName(status));
}

void MemZero(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
             std::uint64_t size, TF_Status* status) {
  const std::string target = Live().Describe(location);
  g.stream_executor.mem_zero(device, stream, location, size, status);
  Log("mem_zero ordinal=%d size=%" PRIu64 " dst=%s status=%s", device->ordinal, size,
      target.c_str(), CodeName(status));
}

void Memset(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
            std::uint8_t pattern, std::uint64_t size, TF_Status* status) {
  const std::string target = Live().Describe(location);
  g.stream_executor.memset(device, stream, location, pattern, size, status);
  Log("memset ordinal=%d size=%" PRIu64 " pattern=%u dst=%s status=%s", device->ordinal, size,
      pattern, target.c_str(), CodeName(status));
}

void Memset32(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
              std::uint32_t pattern, std::uint64_t size, TF_Status* status) {
  const std::string target = Live().Describe(location);
  g.stream_executor.memset32(device, stream, location, pattern, size, status);
  Log("memset32 ordinal=%d size=%" PRIu64 " pattern=%u dst=%s status=%s", device->ordinal, size,
      pattern, target.c_str(), CodeName(status));
}

TF_Bool HostCallback(const SP_Device* device, SP_Stream stream, SE_StatusCallbackFn callback_fn,
                     void* callback_arg) {
  const TF_Bool result = g.stream_executor.host_callback(device, stream, callback_fn, callback_arg);
  Log("host_callback ordinal=%d result=%d", device->ordinal, result);
  return result;
}

// Replaces every callback the wrapped plugin set with its logging twin; a callback it left
// NULL stays NULL, so TensorFlow sees the same table shape.
template <typename Fn>
void Swap(Fn& slot, Fn wrapper) {
  if (slot != nullptr) slot = wrapper;
}

void WrapStreamExecutor(SP_StreamExecutor* se) {
  Swap(se->allocate, &Allocate);
  Swap(se->deallocate, &Deallocate);
  Swap(se->host_memory_allocate, &HostMemoryAllocate);
  Swap(se->host_memory_deallocate, &HostMemoryDeallocate);
  Swap(se->unified_memory_allocate, &UnifiedMemoryAllocate);
  Swap(se->unified_memory_deallocate, &UnifiedMemoryDeallocate);
  Swap(se->get_allocator_stats, &GetAllocatorStats);
  Swap(se->device_memory_usage, &DeviceMemoryUsage);
  Swap(se->create_stream, &CreateStream);
  Swap(se->destroy_stream, &DestroyStream);
  Swap(se->create_stream_dependency, &CreateStreamDependency);
  Swap(se->get_stream_status, &GetStreamStatus);
  Swap(se->create_event, &CreateEvent);
  Swap(se->destroy_event, &DestroyEvent);
  Swap(se->get_event_status, &GetEventStatus);
  Swap(se->record_event, &RecordEvent);
  Swap(se->wait_for_event, &WaitForEvent);
  Swap(se->create_timer, &CreateTimer);
  Swap(se->destroy_timer, &DestroyTimer);
  Swap(se->start_timer, &StartTimer);
  Swap(se->stop_timer, &StopTimer);
  Swap(se->memcpy_dtoh, &MemcpyDtoH);
  Swap(se->memcpy_htod, &MemcpyHtoD);
  Swap(se->memcpy_dtod, &MemcpyDtoD);
  Swap(se->sync_memcpy_dtoh, &SyncMemcpyDtoH);
  Swap(se->sync_memcpy_htod, &SyncMemcpyHtoD);
  Swap(se->sync_memcpy_dtod, &SyncMemcpyDtoD);
  Swap(se->block_host_for_event, &BlockHostForEvent);
  Swap(se->block_host_until_done, &BlockHostUntilDone);
  Swap(se->synchronize_all_activity, &SynchronizeAllActivity);
  Swap(se->mem_zero, &MemZero);
  Swap(se->memset, &Memset);
  Swap(se->memset32, &Memset32);
  Swap(se->host_callback, &HostCallback);
}

// --- SP_DeviceFns, SP_TimerFns ---------------------------------------------------------------

std::int32_t GetNumaNode(const SP_Device* device) {
  Log("get_numa_node ordinal=%d", device->ordinal);
  return g.device_fns.get_numa_node(device);
}

std::int64_t GetMemoryBandwidth(const SP_Device* device) {
  Log("get_memory_bandwidth ordinal=%d", device->ordinal);
  return g.device_fns.get_memory_bandwidth(device);
}

double GetGflops(const SP_Device* device) {
  Log("get_gflops ordinal=%d", device->ordinal);
  return g.device_fns.get_gflops(device);
}

std::uint64_t Nanoseconds(SP_Timer timer) {
  Log("nanoseconds");
  return g.timer_fns.nanoseconds(timer);
}

// --- SP_PlatformFns ----------------------------------------------------------------------------

void GetDeviceCount(const SP_Platform* platform, int* device_count, TF_Status* status) {
  g.platform_fns.get_device_count(platform, device_count, status);
  Log("get_device_count count=%d status=%s", device_count ? *device_count : -1, CodeName(status));
}

void CreateDevice(const SP_Platform* platform, SE_CreateDeviceParams* params, TF_Status* status) {
  Log("create_device ordinal=%d params_struct_size=%zu device_struct_size=%zu", params->ordinal,
      params->struct_size, params->device ? params->device->struct_size : 0);
  g.platform_fns.create_device(platform, params, status);
  Log("create_device.done ordinal=%d status=%s", params->ordinal, CodeName(status));
}

void DestroyDevice(const SP_Platform* platform, SP_Device* device) {
  Log("destroy_device ordinal=%d", device->ordinal);
  g.platform_fns.destroy_device(platform, device);
}

void CreateDeviceFns(const SP_Platform* platform, SE_CreateDeviceFnsParams* params,
                     TF_Status* status) {
  Log("create_device_fns device_fns_struct_size=%zu",
      params->device_fns ? params->device_fns->struct_size : 0);
  g.platform_fns.create_device_fns(platform, params, status);
  if (TF_GetCode(status) == TF_OK && params->device_fns != nullptr) {
    g.device_fns = *params->device_fns;
    Swap(params->device_fns->get_numa_node, &GetNumaNode);
    Swap(params->device_fns->get_memory_bandwidth, &GetMemoryBandwidth);
    Swap(params->device_fns->get_gflops, &GetGflops);
  }
}

void DestroyDeviceFns(const SP_Platform* platform, SP_DeviceFns* device_fns) {
  Log("destroy_device_fns");
  g.platform_fns.destroy_device_fns(platform, device_fns);
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  Log("create_stream_executor stream_executor_struct_size=%zu",
      params->stream_executor ? params->stream_executor->struct_size : 0);
  g.platform_fns.create_stream_executor(platform, params, status);
  if (TF_GetCode(status) == TF_OK && params->stream_executor != nullptr) {
    g.stream_executor = *params->stream_executor;
    WrapStreamExecutor(params->stream_executor);
  }
}

void DestroyStreamExecutor(const SP_Platform* platform, SP_StreamExecutor* stream_executor) {
  Log("destroy_stream_executor");
  g.platform_fns.destroy_stream_executor(platform, stream_executor);
}

void CreateTimerFns(const SP_Platform* platform, SP_TimerFns* timer, TF_Status* status) {
  Log("create_timer_fns");
  g.platform_fns.create_timer_fns(platform, timer, status);
  if (TF_GetCode(status) == TF_OK && timer != nullptr) {
    g.timer_fns = *timer;
    Swap(timer->nanoseconds, &Nanoseconds);
  }
}

void DestroyTimerFns(const SP_Platform* platform, SP_TimerFns* timer_fns) {
  Log("destroy_timer_fns");
  g.platform_fns.destroy_timer_fns(platform, timer_fns);
}

void DestroyPlatform(SP_Platform* platform) {
  Log("destroy_platform");
  g.destroy_platform(platform);
}

void DestroyPlatformFns(SP_PlatformFns* platform_fns) {
  Log("destroy_platform_fns");
  g.destroy_platform_fns(platform_fns);
}

}  // namespace

// --- Entry points --------------------------------------------------------------------------

CALL_LOG_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  Log("SE_InitPlugin version=%d.%d.%d params_struct_size=%zu platform_struct_size=%zu "
      "platform_fns_struct_size=%zu",
      params->major_version, params->minor_version, params->patch_version, params->struct_size,
      params->platform ? params->platform->struct_size : 0,
      params->platform_fns ? params->platform_fns->struct_size : 0);
  auto* init = reinterpret_cast<void (*)(SE_PlatformRegistrationParams*, TF_Status*)>(
      Target("SE_InitPlugin"));
  if (init == nullptr) {
    TF_SetStatus(status, TF_NOT_FOUND, "call_logging_plugin: the wrapped plugin did not load");
    return;
  }
  init(params, status);
  Log("SE_InitPlugin.done status=%s", CodeName(status));
  if (TF_GetCode(status) != TF_OK) return;
  // CALL_LOG_USE_BFC=0 records TensorFlow without its BFC allocator (every tensor an allocate
  // and a deallocate of its own) on the same target; the reference plugin's deallocate is
  // stream-ordered, so TensorFlow still computes right.
  if (const char* bfc = std::getenv("CALL_LOG_USE_BFC"); bfc != nullptr && *bfc != '\0')
    params->platform->use_bfc_allocator = static_cast<TF_Bool>(std::strcmp(bfc, "0") != 0);
  SP_PlatformFns* fns = params->platform_fns;
  g.platform_fns = *fns;
  Swap(fns->get_device_count, &GetDeviceCount);
  Swap(fns->create_device, &CreateDevice);
  Swap(fns->destroy_device, &DestroyDevice);
  Swap(fns->create_device_fns, &CreateDeviceFns);
  Swap(fns->destroy_device_fns, &DestroyDeviceFns);
  Swap(fns->create_stream_executor, &CreateStreamExecutor);
  Swap(fns->destroy_stream_executor, &DestroyStreamExecutor);
  Swap(fns->create_timer_fns, &CreateTimerFns);
  Swap(fns->destroy_timer_fns, &DestroyTimerFns);
  g.destroy_platform = params->destroy_platform;
  g.destroy_platform_fns = params->destroy_platform_fns;
  Swap(params->destroy_platform, &DestroyPlatform);
  Swap(params->destroy_platform_fns, &DestroyPlatformFns);
}

// The other modules are forwarded untouched (their tables are not SP_* callbacks); only the
// entry point's call is logged. Their parameter structs are opaque here. No TFNPD_InitPlugin:
// the reference plugin has none (tests/npd_plugin), and a forwarder returning NULL would be a
// NextPluggableDevice module TensorFlow rejects.

CALL_LOG_EXPORT void TF_InitKernel(void) {
  Log("TF_InitKernel");
  if (auto* init = reinterpret_cast<void (*)()>(Target("TF_InitKernel"))) init();
}

CALL_LOG_EXPORT void TF_InitGraph(void* params, TF_Status* status) {
  Log("TF_InitGraph");
  if (auto* init = reinterpret_cast<void (*)(void*, TF_Status*)>(Target("TF_InitGraph")))
    init(params, status);
}

CALL_LOG_EXPORT void TF_InitProfiler(void* params, TF_Status* status) {
  Log("TF_InitProfiler");
  if (auto* init = reinterpret_cast<void (*)(void*, TF_Status*)>(Target("TF_InitProfiler")))
    init(params, status);
}
