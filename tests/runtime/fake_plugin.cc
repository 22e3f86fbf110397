#include "fake_plugin.h"

#include <cstdlib>
#include <cstring>

#include "tensorflow/c/tf_status.h"

namespace runtime_test {
namespace {

struct SP_Stream_st_fake {
  int unused;
};

void Ok(TF_Status* status) {
  if (Behaviour().write_statuses) TF_SetStatus(status, TF_OK, "");
}

void Allocate(const SP_Device*, uint64_t size, int64_t, SP_DeviceMemoryBase* mem) {
  mem->opaque = size == 0 ? nullptr : std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (Behaviour().write_allocation_size) mem->size = size;
  mem->payload = 0;
}
void Deallocate(const SP_Device*, SP_DeviceMemoryBase* mem) { std::free(mem->opaque); }
void* HostAllocate(const SP_Device*, uint64_t size) {
  return std::aligned_alloc(64, (size + 63) / 64 * 64);
}
void HostDeallocate(const SP_Device*, void* mem) { std::free(mem); }
TF_Bool Stats(const SP_Device*, SP_AllocatorStats*) { return 0; }
TF_Bool Usage(const SP_Device*, int64_t* free_bytes, int64_t* total) {
  if (Behaviour().write_memory_usage) {
    *free_bytes = 1 << 20;
    *total = 1 << 20;
  }
  return 1;
}
void CreateStream(const SP_Device*, SP_Stream* stream, TF_Status* status) {
  if (Behaviour().write_stream) *stream = reinterpret_cast<SP_Stream>(new SP_Stream_st_fake{});
  Ok(status);
}
void DestroyStream(const SP_Device*, SP_Stream stream) {
  delete reinterpret_cast<SP_Stream_st_fake*>(stream);
}
void StreamStatus(const SP_Device*, SP_Stream, TF_Status* status) { Ok(status); }
void Dependency(const SP_Device*, SP_Stream, SP_Stream, TF_Status* status) { Ok(status); }
void CreateEvent(const SP_Device*, SP_Event* event, TF_Status* status) {
  *event = reinterpret_cast<SP_Event>(new int(SE_EVENT_UNKNOWN));
  Ok(status);
}
void DestroyEvent(const SP_Device*, SP_Event event) { delete reinterpret_cast<int*>(event); }
SE_EventStatus EventStatus(const SP_Device*, SP_Event event) {
  return static_cast<SE_EventStatus>(*reinterpret_cast<int*>(event));
}
void Record(const SP_Device*, SP_Stream, SP_Event event, TF_Status* status) {
  *reinterpret_cast<int*>(event) = SE_EVENT_COMPLETE;
  Ok(status);
}
void WaitEvent(const SP_Device* const, SP_Stream, SP_Event, TF_Status* const status) { Ok(status); }
void HtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
          TF_Status* status) {
  if (size) std::memcpy(dst->opaque, src, size);
  Ok(status);
}
void DtoH(const SP_Device*, SP_Stream, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
          TF_Status* status) {
  if (size) std::memcpy(dst, src->opaque, size);
  Ok(status);
}
void DtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
          uint64_t size, TF_Status* status) {
  if (size) std::memmove(dst->opaque, src->opaque, size);
  Ok(status);
}
void SyncHtoD(const SP_Device* d, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
              TF_Status* status) {
  HtoD(d, nullptr, dst, src, size, status);
}
void SyncDtoH(const SP_Device* d, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
              TF_Status* status) {
  DtoH(d, nullptr, dst, src, size, status);
}
void BlockEvent(const SP_Device*, SP_Event, TF_Status* status) { Ok(status); }
void SyncAll(const SP_Device*, TF_Status* status) { Ok(status); }
void Zero(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint64_t size,
          TF_Status* status) {
  if (size) std::memset(location->opaque, 0, size);
  Ok(status);
}
void Set8(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint8_t pattern,
          uint64_t size, TF_Status* status) {
  if (size) std::memset(location->opaque, pattern, size);
  Ok(status);
}
void Set32(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint32_t pattern,
           uint64_t size, TF_Status* status) {
  for (uint64_t i = 0; i < size / 4; ++i) static_cast<uint32_t*>(location->opaque)[i] = pattern;
  Ok(status);
}
TF_Bool HostCallback(const SP_Device*, SP_Stream, SE_StatusCallbackFn fn, void* arg) {
  TF_Status* status = TF_NewStatus();
  fn(arg, status);
  TF_DeleteStatus(status);
  return 1;
}

void DeviceCount(const SP_Platform*, int* count, TF_Status* status) {
  if (Behaviour().write_device_count) *count = 2;
  Ok(status);
}
void CreateDevice(const SP_Platform*, SE_CreateDeviceParams* params, TF_Status* status) {
  params->device->ordinal = params->ordinal;
  Ok(status);
}
void DestroyDevice(const SP_Platform*, SP_Device*) {}
void CreateDeviceFns(const SP_Platform*, SE_CreateDeviceFnsParams*, TF_Status* status) {
  Ok(status);
}
void DestroyDeviceFns(const SP_Platform*, SP_DeviceFns*) {}
void CreateStreamExecutor(const SP_Platform*, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  SP_StreamExecutor& se = *params->stream_executor;
  se.struct_size = Behaviour().stream_executor_struct_size;
  se.allocate = Allocate;
  se.deallocate = Deallocate;
  se.host_memory_allocate = HostAllocate;
  se.host_memory_deallocate = HostDeallocate;
  se.get_allocator_stats = Stats;
  se.device_memory_usage = Usage;
  se.create_stream = CreateStream;
  se.destroy_stream = DestroyStream;
  se.create_stream_dependency = Dependency;
  se.get_stream_status = StreamStatus;
  se.create_event = CreateEvent;
  se.destroy_event = DestroyEvent;
  se.get_event_status = EventStatus;
  se.record_event = Record;
  se.wait_for_event = WaitEvent;
  se.memcpy_dtoh = DtoH;
  se.memcpy_htod = HtoD;
  se.memcpy_dtod = DtoD;
  se.sync_memcpy_dtoh = SyncDtoH;
  se.sync_memcpy_htod = SyncHtoD;
  se.block_host_for_event = BlockEvent;
  se.synchronize_all_activity = SyncAll;
  se.mem_zero = Zero;
  se.memset = Set8;
  se.memset32 = Set32;
  se.host_callback = HostCallback;
  Ok(status);
}
void DestroyStreamExecutor(const SP_Platform*, SP_StreamExecutor*) {}
void DestroyPlatform(SP_Platform*) {}
void DestroyPlatformFns(SP_PlatformFns*) {}

}  // namespace

FakeBehaviour& Behaviour() {
  static FakeBehaviour behaviour;
  return behaviour;
}

void FakeInitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  params->platform->name = "FAKE";
  params->platform->type = "FAKE_DEVICE";
  SP_PlatformFns& fns = *params->platform_fns;
  fns.get_device_count = DeviceCount;
  fns.create_device = CreateDevice;
  fns.destroy_device = DestroyDevice;
  fns.create_device_fns = CreateDeviceFns;
  fns.destroy_device_fns = DestroyDeviceFns;
  fns.create_stream_executor = CreateStreamExecutor;
  fns.destroy_stream_executor = DestroyStreamExecutor;
  params->destroy_platform = DestroyPlatform;
  params->destroy_platform_fns = DestroyPlatformFns;
  Ok(status);
}

}  // namespace runtime_test
