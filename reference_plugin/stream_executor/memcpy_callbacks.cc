// Copies: asynchronous ones queued on a stream, and synchronous ones done on the spot.
//
// Arguments are checked before anything is queued (device_buffer.h), so a bad argument comes
// back in this call's TF_Status and the stream stays healthy.
//
// Asynchronous copies read/write the host buffer when the stream gets there: the caller must
// keep it alive and untouched until then (an event, block_host_until_done, ...). That is the
// contract of every real device, and running the copy on another thread makes a violation
// visible.
//
// Synchronous copies are done on the calling thread and are complete on return. They are not
// ordered with stream work (as with a real device's blocking copy next to non-blocking
// streams): whoever mixes them must synchronize first.
#include <cstring>
#include <memory>

#include "profiler/trace_recorder.h"
#include "stream_executor/device.h"
#include "stream_executor/device_buffer.h"
#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {
namespace {

// Everything an asynchronous copy needs before it can be queued: a live stream on a valid
// device.
Status find_device_stream(const SP_Device* sp_device, SP_Stream stream,
                          std::shared_ptr<SP_Stream_st>* found) {
  Device* device = nullptr;
  REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
  return device->find_stream(stream, found);
}

Status check_device(const SP_Device* sp_device) {
  Device* device = nullptr;
  return Device::from(sp_device, &device);
}

// Queues `size` bytes from `source` to `destination`. memmove, because a device-to-device
// copy within one allocation may overlap.
// `what` names the copy in a profiling session's trace.
Status enqueue_copy(Stream& stream, const char* what, void* destination, const void* source,
                    uint64_t size) {
  if (size == 0) return Status();
  return stream.enqueue_operation(
      profiler::traced(stream.name(), what, [destination, source, size] {
        std::memmove(destination, source, size);
        return Status();
      }));
}

void memcpy_dtoh(const SP_Device* sp_device, SP_Stream stream, void* host_dst,
                 const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::shared_ptr<SP_Stream_st> on_stream;
    std::byte* source = nullptr;
    REFERENCE_RETURN_IF_ERROR(find_device_stream(sp_device, stream, &on_stream));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_src, size, "memcpy_dtoh source", &source));
    REFERENCE_RETURN_IF_ERROR(check_host_buffer(host_dst, size, "memcpy_dtoh destination"));
    return enqueue_copy(*on_stream, "memcpy_dtoh", host_dst, source, size);
  });
}

void memcpy_htod(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                 const void* host_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::shared_ptr<SP_Stream_st> on_stream;
    std::byte* destination = nullptr;
    REFERENCE_RETURN_IF_ERROR(find_device_stream(sp_device, stream, &on_stream));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_dst, size, "memcpy_htod destination", &destination));
    REFERENCE_RETURN_IF_ERROR(check_host_buffer(host_src, size, "memcpy_htod source"));
    return enqueue_copy(*on_stream, "memcpy_htod", destination, host_src, size);
  });
}

void memcpy_dtod(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                 const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::shared_ptr<SP_Stream_st> on_stream;
    std::byte* destination = nullptr;
    std::byte* source = nullptr;
    REFERENCE_RETURN_IF_ERROR(find_device_stream(sp_device, stream, &on_stream));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_dst, size, "memcpy_dtod destination", &destination));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_src, size, "memcpy_dtod source", &source));
    return enqueue_copy(*on_stream, "memcpy_dtod", destination, source, size);
  });
}

void sync_memcpy_dtoh(const SP_Device* sp_device, void* host_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::byte* source = nullptr;
    REFERENCE_RETURN_IF_ERROR(check_device(sp_device));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_src, size, "sync_memcpy_dtoh source", &source));
    REFERENCE_RETURN_IF_ERROR(check_host_buffer(host_dst, size, "sync_memcpy_dtoh destination"));
    if (size > 0) std::memcpy(host_dst, source, size);
    return Status();
  });
}

void sync_memcpy_htod(const SP_Device* sp_device, SP_DeviceMemoryBase* device_dst,
                      const void* host_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::byte* destination = nullptr;
    REFERENCE_RETURN_IF_ERROR(check_device(sp_device));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_dst, size, "sync_memcpy_htod destination", &destination));
    REFERENCE_RETURN_IF_ERROR(check_host_buffer(host_src, size, "sync_memcpy_htod source"));
    if (size > 0) std::memcpy(destination, host_src, size);
    return Status();
  });
}

void sync_memcpy_dtod(const SP_Device* sp_device, SP_DeviceMemoryBase* device_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::byte* destination = nullptr;
    std::byte* source = nullptr;
    REFERENCE_RETURN_IF_ERROR(check_device(sp_device));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_dst, size, "sync_memcpy_dtod destination", &destination));
    REFERENCE_RETURN_IF_ERROR(
        resolve_device_buffer(device_src, size, "sync_memcpy_dtod source", &source));
    if (size > 0) std::memmove(destination, source, size);
    return Status();
  });
}

}  // namespace

void install_memcpy_callbacks(SP_StreamExecutor& table) {
  table.memcpy_dtoh = memcpy_dtoh;
  table.memcpy_htod = memcpy_htod;
  table.memcpy_dtod = memcpy_dtod;
  table.sync_memcpy_dtoh = sync_memcpy_dtoh;
  table.sync_memcpy_htod = sync_memcpy_htod;
  table.sync_memcpy_dtod = sync_memcpy_dtod;
}

}  // namespace reference_plugin
