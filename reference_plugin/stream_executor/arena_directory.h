#pragma once
// The process-wide index of live device arenas. A device-to-device copy may involve two
// devices of this plugin (a copy between devices of the same type can be issued as one
// memcpy_dtod on one of them), so checking a device address must not be limited to the
// device whose callback was called.
#include <cstdint>

#include "stream_executor/status.h"

namespace reference_plugin {

class DeviceMemoryArena;

namespace arena_directory {

void add(const DeviceMemoryArena* arena);
void remove(const DeviceMemoryArena* arena);

// OK when [address, address + size) lies inside one live allocation of any device of this
// plugin; otherwise the error of DeviceMemoryArena::check_live_range, or
// TF_INVALID_ARGUMENT if the address belongs to no device at all.
Status check_live_range(const void* address, uint64_t size);

}  // namespace arena_directory
}  // namespace reference_plugin
