#pragma once
// Checking the buffer arguments of copies and fills before any work is queued, so that a bad
// argument is reported right away in the callback's TF_Status (and never reaches a stream):
//   NULL SP_DeviceMemoryBase, NULL opaque or NULL host pointer  -> TF_INVALID_ARGUMENT
//   address that is not inside a live allocation of this plugin -> TF_INVALID_ARGUMENT
//   more bytes than SP_DeviceMemoryBase.size, or than are left in
//   the allocation after the address                            -> TF_OUT_OF_RANGE
// A size of 0 is always fine and touches nothing (even a NULL opaque: that is what a
// size-0 allocation returns, see memory_callbacks.cc).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

// `role` names the argument in messages, e.g. "memcpy_htod destination".
Status resolve_device_buffer(const SP_DeviceMemoryBase* buffer, uint64_t size,
                             std::string_view role, std::byte** address);

Status check_host_buffer(const void* host, uint64_t size, std::string_view role);

}  // namespace reference_plugin
