#include "kernels/guard_bytes.h"

#include <algorithm>
#include <array>

#include "runtime/stream.h"
#include "runtime/wait_idle.h"

namespace conformance::kernels {
namespace {

runtime::DeviceRange GuardRange(const runtime::DeviceRange& buffer, std::size_t bytes) {
  return runtime::DeviceRange(static_cast<std::uint8_t*>(buffer.opaque()) + bytes, kGuardBytes, 0);
}

}  // namespace

void WriteGuard(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes) {
  std::array<std::uint8_t, kGuardBytes> guard;
  guard.fill(kGuardByte);
  // The host bytes live on this frame: wait for the copy before returning.
  if (stream.MemcpyHtoD(GuardRange(buffer, bytes), guard.data(), kGuardBytes).ok())
    (void)runtime::WaitIdle(stream);
}

bool GuardIntact(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes) {
  std::array<std::uint8_t, kGuardBytes> guard;
  guard.fill(kGuardByte);
  // A copy that fails tells nothing about the kernel: count the guard as intact.
  if (!stream.MemcpyDtoH(guard.data(), GuardRange(buffer, bytes), kGuardBytes).ok() ||
      !runtime::WaitIdle(stream).ok())
    return true;
  return std::all_of(guard.begin(), guard.end(), [](std::uint8_t b) { return b == kGuardByte; });
}

}  // namespace conformance::kernels
