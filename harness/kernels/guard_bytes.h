#pragma once
// Guard bytes after every device allocation a kernel case makes (inputs, outputs, temps): a
// kernel that writes one element past a buffer's end corrupts whatever TensorFlow's allocator
// placed next to it, and nothing else would notice, because the harness reads back only the
// bytes a tensor owns.
#include <cstddef>
#include <cstdint>

#include "runtime/device_buffer.h"

namespace conformance::runtime {
class Stream;
}

namespace conformance::kernels {

// Bytes appended to each allocation: one element of the widest dtype and then some, so a
// vectorised store that overshoots by a lane is caught too.
inline constexpr std::size_t kGuardBytes = 64;
// Neither the allocator's poison (0xFF) nor zero, nor a byte of a small float or integer.
inline constexpr std::uint8_t kGuardByte = 0xA5;

// Writes the guard after the first `bytes` bytes of `buffer`, with memcpy_htod on `stream` (a
// stream of the allocator's own, never the held or busy compute stream), and waits for it:
// only calls TensorFlow itself makes (runtime/tensorflow_calls.h).
void WriteGuard(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes);
// True when the guard after `bytes` still holds kGuardByte everywhere (memcpy_dtoh on `stream`,
// then a wait). Call it only once the work that may write there has finished.
bool GuardIntact(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes);

}  // namespace conformance::kernels
