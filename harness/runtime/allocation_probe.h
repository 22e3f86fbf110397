#pragma once
// Whether an allocation that should not have succeeded (more than the device reports) is real:
// a host-memory device on an overcommitting kernel legitimately hands out more than it has,
// while a plugin that truncates the size (a uint32_t) returns a small buffer under a huge one's
// name. Probed the way TensorFlow touches memory: a few bytes copied to the allocation's last
// offset with memcpy_htod and back with memcpy_dtoh on a stream, waited for as TensorFlow waits.
#include <cstdint>

#include "runtime/device.h"
#include "runtime/device_buffer.h"

namespace conformance::runtime {

// "impossible allocation succeeded": the problem the runtime checks and scenarios blame on
// allocate when such an allocation is not usable at its end.
inline constexpr const char* kImpossibleAllocation = "impossible allocation succeeded";

// True when bytes written at the end of `buffer` (`size` bytes long) read back intact. A crash
// or timeout inside is blamed on allocate (in_flight::Probing), not on the copies.
bool UsableNearEnd(Device& device, const DeviceBuffer& buffer, std::uint64_t size);

}  // namespace conformance::runtime
