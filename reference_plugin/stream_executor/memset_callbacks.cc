// Fills queued on a stream: mem_zero, memset (a byte pattern) and memset32 (a 32-bit
// pattern). `size` is always in bytes. memset32 needs a size that is a multiple of 4 and a
// 4-byte aligned destination (as real devices do); anything else is TF_INVALID_ARGUMENT.
#include <cstring>
#include <memory>

#include "stream_executor/device.h"
#include "stream_executor/device_buffer.h"
#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {
namespace {

constexpr uint64_t kWordBytes = sizeof(uint32_t);

// Checks the arguments shared by all three fills and finds the stream and destination.
Status prepare_fill(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* location,
                    uint64_t size, const char* role, std::shared_ptr<SP_Stream_st>* on_stream,
                    std::byte** destination) {
  Device* device = nullptr;
  REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
  REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, on_stream));
  return resolve_device_buffer(location, size, role, destination);
}

Status enqueue_byte_fill(const SP_Device* sp_device, SP_Stream stream,
                         SP_DeviceMemoryBase* location, uint8_t pattern, uint64_t size,
                         const char* role) {
  std::shared_ptr<SP_Stream_st> on_stream;
  std::byte* destination = nullptr;
  REFERENCE_RETURN_IF_ERROR(
      prepare_fill(sp_device, stream, location, size, role, &on_stream, &destination));
  if (size == 0) return Status();
  return on_stream->enqueue_operation([destination, pattern, size] {
    std::memset(destination, pattern, size);
    return Status();
  });
}

void mem_zero(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* location,
              uint64_t size, TF_Status* status) {
  run_and_report(status, [&] {
    return enqueue_byte_fill(sp_device, stream, location, 0, size, "mem_zero destination");
  });
}

void memset8(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* location,
             uint8_t pattern, uint64_t size, TF_Status* status) {
  run_and_report(status, [&] {
    return enqueue_byte_fill(sp_device, stream, location, pattern, size, "memset destination");
  });
}

void memset32(const SP_Device* sp_device, SP_Stream stream, SP_DeviceMemoryBase* location,
              uint32_t pattern, uint64_t size, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::shared_ptr<SP_Stream_st> on_stream;
    std::byte* destination = nullptr;
    REFERENCE_RETURN_IF_ERROR(prepare_fill(sp_device, stream, location, size,
                                           "memset32 destination", &on_stream, &destination));
    if (size % kWordBytes != 0) {
      return invalid_argument("memset32: size ", size,
                              " is not a multiple of 4 (size is in bytes, not words)");
    }
    if (reinterpret_cast<uintptr_t>(destination) % kWordBytes != 0) {
      return invalid_argument("memset32: destination ", static_cast<void*>(destination),
                              " is not 4-byte aligned");
    }
    if (size == 0) return Status();
    return on_stream->enqueue_operation([destination, pattern, size] {
      // memcpy per word: the device writes the pattern in host byte order, like a real
      // little-endian device would.
      for (uint64_t offset = 0; offset < size; offset += kWordBytes) {
        std::memcpy(destination + offset, &pattern, kWordBytes);
      }
      return Status();
    });
  });
}

}  // namespace

void install_memset_callbacks(SP_StreamExecutor& table) {
  table.mem_zero = mem_zero;
  table.memset = memset8;
  table.memset32 = memset32;
}

}  // namespace reference_plugin
