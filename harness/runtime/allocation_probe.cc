#include "runtime/allocation_probe.h"

#include <array>
#include <string>

#include "isolate/in_flight.h"
#include "runtime/stream.h"
#include "runtime/wait_idle.h"

namespace conformance::runtime {

bool UsableNearEnd(Device& device, const DeviceBuffer& buffer, std::uint64_t size) {
  constexpr std::array<std::uint8_t, 8> kPattern = {0x5A, 0xC3, 0x3C, 0xA5, 0x0F, 0xF0, 0x69, 0x96};
  if (size < kPattern.size()) return false;
  const in_flight::Probing probing(
      "allocate", kImpossibleAllocation,
      "the last bytes of a " + std::to_string(size) +
          "-byte allocation beyond the device's capacity (written with memcpy_htod, read back "
          "with memcpy_dtoh)");
  auto stream = device.CreateStream();
  if (!stream.ok()) return false;
  const DeviceRange end = buffer.Range(size - kPattern.size(), kPattern.size());
  std::array<std::uint8_t, kPattern.size()> back{};
  if (!stream->MemcpyHtoD(end, kPattern.data(), kPattern.size()).ok()) return false;
  if (!stream->MemcpyDtoH(back.data(), end, kPattern.size()).ok()) return false;
  (void)WaitIdle(*stream);  // the bytes decide; a failing wait is its own checks' finding
  return back == kPattern;
}

}  // namespace conformance::runtime
