#include "kernels/guard_bytes.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "runtime/stream.h"
#include "runtime/wait_idle.h"

namespace conformance::kernels {

void WritePoisonAndGuard(runtime::Stream& stream, const runtime::DeviceRange& buffer,
                         std::size_t bytes, std::uint8_t poison, bool guard) {
  std::vector<std::uint8_t> host(bytes + (guard ? kGuardBytes : 0), kGuardByte);
  std::fill_n(host.begin(), bytes, poison);
  // The host bytes live on this frame: wait for the copy before returning.
  if (stream.MemcpyHtoD(buffer, host.data(), host.size()).ok())
    (void)runtime::WaitIdle(stream, /*device_wide=*/false);
}

bool GuardIntact(runtime::Stream& stream, const runtime::DeviceRange& buffer, std::size_t bytes) {
  std::vector<std::uint8_t> host(bytes + kGuardBytes, kGuardByte);
  // A copy that fails tells nothing about the kernel: count the guard as intact.
  if (!stream.MemcpyDtoH(host.data(), buffer, host.size()).ok() ||
      !runtime::WaitIdle(stream, /*device_wide=*/false).ok())
    return true;
  return std::all_of(host.begin() + static_cast<std::ptrdiff_t>(bytes), host.end(),
                     [](std::uint8_t b) { return b == kGuardByte; });
}

}  // namespace conformance::kernels
