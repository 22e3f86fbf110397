#include "kernels/host_stream_executor.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace conformance::kernels {
namespace {

void Ok(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

// Streams and events are opaque handles with nothing behind them: every operation on the host
// device has finished when its call returns.
int handle_storage;
template <typename Handle>
Handle Token() {
  return reinterpret_cast<Handle>(&handle_storage);
}

void* AlignedBlock(std::uint64_t size) {
  // aligned_alloc wants a multiple of the alignment; a zero-byte tensor still gets a block.
  const std::uint64_t rounded =
      size == 0 ? kHostAlignment : (size + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  return std::aligned_alloc(kHostAlignment, rounded);
}

void Allocate(const SP_Device* /*device*/, std::uint64_t size, std::int64_t /*memory_space*/,
              SP_DeviceMemoryBase* mem) {
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = AlignedBlock(size);
  mem->size = mem->opaque != nullptr ? size : 0;
  mem->payload = 0;
}
void Deallocate(const SP_Device* /*device*/, SP_DeviceMemoryBase* memory) {
  std::free(memory->opaque);
}
void* HostAllocate(const SP_Device* /*device*/, std::uint64_t size) { return AlignedBlock(size); }
void HostDeallocate(const SP_Device* /*device*/, void* mem) { std::free(mem); }

void CreateStream(const SP_Device* /*device*/, SP_Stream* stream, TF_Status* status) {
  *stream = Token<SP_Stream>();
  Ok(status);
}
void DestroyStream(const SP_Device* /*device*/, SP_Stream /*stream*/) {}
void StreamDependency(const SP_Device* /*device*/, SP_Stream /*dependent*/, SP_Stream /*other*/,
                      TF_Status* status) {
  Ok(status);
}
void StreamStatus(const SP_Device* /*device*/, SP_Stream /*stream*/, TF_Status* status) {
  Ok(status);
}
void CreateEvent(const SP_Device* /*device*/, SP_Event* event, TF_Status* status) {
  *event = Token<SP_Event>();
  Ok(status);
}
void DestroyEvent(const SP_Device* /*device*/, SP_Event /*event*/) {}
SE_EventStatus EventStatus(const SP_Device* /*device*/, SP_Event /*event*/) {
  return SE_EVENT_COMPLETE;
}
void RecordEvent(const SP_Device* /*device*/, SP_Stream /*stream*/, SP_Event /*event*/,
                 TF_Status* status) {
  Ok(status);
}
void WaitForEvent(const SP_Device* const /*device*/, SP_Stream /*stream*/, SP_Event /*event*/,
                  TF_Status* const status) {
  Ok(status);
}

void CopyToHost(const SP_Device* /*device*/, SP_Stream /*stream*/, void* host_dst,
                const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  if (size > 0) std::memcpy(host_dst, device_src->opaque, size);
  Ok(status);
}
void CopyToDevice(const SP_Device* /*device*/, SP_Stream /*stream*/,
                  SP_DeviceMemoryBase* device_dst, const void* host_src, std::uint64_t size,
                  TF_Status* status) {
  if (size > 0) std::memcpy(device_dst->opaque, host_src, size);
  Ok(status);
}
void CopyOnDevice(const SP_Device* /*device*/, SP_Stream /*stream*/,
                  SP_DeviceMemoryBase* device_dst, const SP_DeviceMemoryBase* device_src,
                  std::uint64_t size, TF_Status* status) {
  if (size > 0) std::memmove(device_dst->opaque, device_src->opaque, size);
  Ok(status);
}
void SyncCopyToHost(const SP_Device* /*device*/, void* host_dst,
                    const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  CopyToHost(nullptr, nullptr, host_dst, device_src, size, status);
}
void SyncCopyToDevice(const SP_Device* /*device*/, SP_DeviceMemoryBase* device_dst,
                      const void* host_src, std::uint64_t size, TF_Status* status) {
  CopyToDevice(nullptr, nullptr, device_dst, host_src, size, status);
}
void SyncCopyOnDevice(const SP_Device* /*device*/, SP_DeviceMemoryBase* device_dst,
                      const SP_DeviceMemoryBase* device_src, std::uint64_t size,
                      TF_Status* status) {
  CopyOnDevice(nullptr, nullptr, device_dst, device_src, size, status);
}
void BlockForEvent(const SP_Device* /*device*/, SP_Event /*event*/, TF_Status* status) {
  Ok(status);
}
void BlockUntilDone(const SP_Device* /*device*/, SP_Stream /*stream*/, TF_Status* status) {
  Ok(status);
}
void SynchronizeAll(const SP_Device* /*device*/, TF_Status* status) { Ok(status); }
TF_Bool HostCallback(const SP_Device* /*device*/, SP_Stream /*stream*/,
                     SE_StatusCallbackFn callback_fn, void* callback_arg) {
  TF_Status* status = TF_NewStatus();
  callback_fn(callback_arg, status);
  TF_DeleteStatus(status);
  return 1;
}

void DeviceCount(const SP_Platform* /*platform*/, int* device_count, TF_Status* status) {
  *device_count = 1;
  Ok(status);
}
void CreateDevice(const SP_Platform* /*platform*/, SE_CreateDeviceParams* params,
                  TF_Status* status) {
  params->device->struct_size = SP_DEVICE_STRUCT_SIZE;
  params->device->ordinal = params->ordinal;
  Ok(status);
}
void DestroyDevice(const SP_Platform* /*platform*/, SP_Device* /*device*/) {}
void CreateDeviceFns(const SP_Platform* /*platform*/, SE_CreateDeviceFnsParams* params,
                     TF_Status* status) {
  params->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  Ok(status);
}
void DestroyDeviceFns(const SP_Platform* /*platform*/, SP_DeviceFns* /*device_fns*/) {}

void CreateStreamExecutor(const SP_Platform* /*platform*/, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  SP_StreamExecutor* se = params->stream_executor;
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->allocate = Allocate;
  se->deallocate = Deallocate;
  se->host_memory_allocate = HostAllocate;
  se->host_memory_deallocate = HostDeallocate;
  se->create_stream = CreateStream;
  se->destroy_stream = DestroyStream;
  se->create_stream_dependency = StreamDependency;
  se->get_stream_status = StreamStatus;
  se->create_event = CreateEvent;
  se->destroy_event = DestroyEvent;
  se->get_event_status = EventStatus;
  se->record_event = RecordEvent;
  se->wait_for_event = WaitForEvent;
  se->memcpy_dtoh = CopyToHost;
  se->memcpy_htod = CopyToDevice;
  se->memcpy_dtod = CopyOnDevice;
  se->sync_memcpy_dtoh = SyncCopyToHost;
  se->sync_memcpy_htod = SyncCopyToDevice;
  se->sync_memcpy_dtod = SyncCopyOnDevice;
  se->block_host_for_event = BlockForEvent;
  se->block_host_until_done = BlockUntilDone;
  se->synchronize_all_activity = SynchronizeAll;
  se->host_callback = HostCallback;
  Ok(status);
}
void DestroyStreamExecutor(const SP_Platform* /*platform*/, SP_StreamExecutor* /*se*/) {}
void DestroyPlatform(SP_Platform* /*platform*/) {}
void DestroyPlatformFns(SP_PlatformFns* /*platform_fns*/) {}

}  // namespace

void InitHostPlatform(SE_PlatformRegistrationParams* params, TF_Status* status) {
  params->platform->struct_size = SP_PLATFORM_STRUCT_SIZE;
  params->platform->name = "Host";
  params->platform->type = kHostDeviceType;
  params->platform->supports_unified_memory = 0;
  // Guard bytes after every block: past a host buffer's end lies the rest of the process heap.
  params->platform->use_bfc_allocator = 1;
  SP_PlatformFns* fns = params->platform_fns;
  fns->get_device_count = DeviceCount;
  fns->create_device = CreateDevice;
  fns->destroy_device = DestroyDevice;
  fns->create_device_fns = CreateDeviceFns;
  fns->destroy_device_fns = DestroyDeviceFns;
  fns->create_stream_executor = CreateStreamExecutor;
  fns->destroy_stream_executor = DestroyStreamExecutor;
  params->destroy_platform = DestroyPlatform;
  params->destroy_platform_fns = DestroyPlatformFns;
  Ok(status);
}

}  // namespace conformance::kernels
