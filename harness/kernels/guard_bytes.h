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

// Fills the first `bytes` bytes of `buffer` with `poison` and the guard after them with
// kGuardByte, in one memcpy_htod to the buffer's own address on `stream` (a stream of the
// allocator's own, never the held or busy compute stream), and waits for that stream alone (a
// device-wide wait inside compute would wait for the held compute stream): only calls, and
// argument patterns, TensorFlow itself makes (runtime/tensorflow_calls.h). Never an interior
// pointer: a plugin without use_bfc_allocator gets one from TensorFlow only for a sliced tensor,
// and one that cannot take it (Vulten) must still have its kernels judged.
// `guard` false: the poison alone (a buffer allocated without room for a guard).
void WritePoisonAndGuard(runtime::Stream& stream, const runtime::DeviceRange& buffer,
                         std::size_t bytes, std::uint8_t poison, bool guard);
// True when the guard after `bytes` still holds kGuardByte everywhere (the whole buffer read
// from its own address with memcpy_dtoh on `stream`, then a wait). Call it only once the work
// that may write there has finished.
bool GuardIntact(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes);

}  // namespace conformance::kernels
