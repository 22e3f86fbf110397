#include "stream_executor/device_buffer.h"

#include "stream_executor/arena_directory.h"

namespace reference_plugin {

Status resolve_device_buffer(const SP_DeviceMemoryBase* buffer, uint64_t size,
                             std::string_view role, std::byte** address) {
  if (buffer == nullptr) return invalid_argument(role, ": SP_DeviceMemoryBase is NULL");
  *address = static_cast<std::byte*>(buffer->opaque);
  if (size == 0) return Status();
  if (buffer->opaque == nullptr) {
    return invalid_argument(role, ": device memory is NULL but ", size, " bytes were requested");
  }
  if (size > buffer->size) {
    return out_of_range(role, ": ", size, " bytes requested but the device buffer holds only ",
                        buffer->size);
  }
  Status live = arena_directory::check_live_range(buffer->opaque, size);
  if (!live.ok()) return Status(live.code(), str_cat(role, ": ", live.message()));
  return Status();
}

Status check_host_buffer(const void* host, uint64_t size, std::string_view role) {
  if (host == nullptr && size > 0) {
    return invalid_argument(role, ": host pointer is NULL but ", size, " bytes were requested");
  }
  return Status();
}

}  // namespace reference_plugin
