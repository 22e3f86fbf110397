#pragma once
// A call given a device range at opaque + offset (TensorFlow's copies of sliced tensors, and
// any fill or copy the checks make at an offset) runs marked (in_flight::InteriorPointer), so a
// bad address in it, whichever call it is, names the one defect behind it: the plugin's opaque
// is not an address of device memory.
#include <initializer_list>
#include <optional>

#include "isolate/in_flight.h"
#include "runtime/device_buffer.h"

namespace conformance::runtime {

inline std::optional<in_flight::InteriorPointer> InteriorNote(
    std::initializer_list<const DeviceRange*> ranges) {
  for (const DeviceRange* range : ranges) {
    if (range->interior()) return std::optional<in_flight::InteriorPointer>(std::in_place);
  }
  return std::nullopt;
}

}  // namespace conformance::runtime
