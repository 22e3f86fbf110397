#pragma once
// One device of a session (an SP_Device as TensorFlow keeps it: its own copy of what
// create_device filled) and the device-level calls: memory, synchronous copies,
// synchronize_all_activity, statistics. Stream-level work is on Stream.
#include <cstdint>
#include <optional>

#include "runtime/call_error.h"
#include "runtime/device_buffer.h"
#include "runtime/host_buffer.h"
#include "runtime/memory_readings.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::runtime {

class DeviceSession;
class Stream;
class Event;

class Device {
 public:
  Device(DeviceSession& session, int ordinal, const SP_Device& filled);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  DeviceSession& session() const { return session_; }
  const SP_StreamExecutor& se() const;
  SP_Device* get() { return &device_; }
  const SP_Device* get() const { return &device_; }
  int ordinal() const { return ordinal_; }

  // allocate(size, memory_space): opaque NULL is kAllocationFailed; opaque never written is
  // kOutParamNotWritten (TensorFlow, which pre-fills NULL, would see a failed allocation).
  CallResult<DeviceBuffer> Allocate(std::uint64_t size, std::int64_t memory_space = 0);
  CallResult<HostBuffer> AllocateHost(std::uint64_t size);
  // kUnsupported unless SP_Platform.supports_unified_memory.
  CallResult<UnifiedBuffer> AllocateUnified(std::uint64_t size);
  CallResult<Stream> CreateStream();
  CallResult<Event> CreateEvent();

  // The synchronous copies: the data must be in place when they return.
  CallStatus SyncMemcpyHtoD(const DeviceRange& dst, const void* src, std::uint64_t size);
  CallStatus SyncMemcpyDtoH(void* dst, const DeviceRange& src, std::uint64_t size);
  CallStatus SyncMemcpyDtoD(const DeviceRange& dst, const DeviceRange& src, std::uint64_t size);
  CallStatus SynchronizeAllActivity();

  // get_allocator_stats / device_memory_usage with poisoned out-params (see memory_readings.h).
  CallResult<AllocatorStatsReading> AllocatorStats();
  CallResult<MemoryUsageReading> MemoryUsage();

  // Frees a raw SP_DeviceMemoryBase triple the way TensorFlow does (a rebuilt struct); for
  // scenarios that deallocate on purpose (NULL, double free). Not counted in accounting.
  void DeallocateRaw(void* opaque, std::uint64_t size, std::uint64_t payload);

 private:
  DeviceSession& session_;
  int ordinal_;
  SP_Device device_;
};

}  // namespace conformance::runtime
