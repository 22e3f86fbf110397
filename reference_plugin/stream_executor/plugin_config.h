#pragma once
// PluginConfig: the knobs of the simulated hardware, read from the environment once per
// SE_InitPlugin call (so a test can change them between registrations).
//
//   REFERENCE_PLUGIN_DEVICE_COUNT   number of devices, 0..32              (default 2)
//   REFERENCE_PLUGIN_MEMORY_BYTES   device memory per device; a decimal   (default 1G)
//                                   number with an optional K, M, G or T
//                                   suffix (powers of 1024), 256..1T
#include <cstdint>

#include "stream_executor/status.h"

namespace reference_plugin {

inline constexpr char kDeviceCountVariable[] = "REFERENCE_PLUGIN_DEVICE_COUNT";
inline constexpr char kMemoryBytesVariable[] = "REFERENCE_PLUGIN_MEMORY_BYTES";

inline constexpr int32_t kDefaultDeviceCount = 2;
// PCI device numbers have 5 bits, and each simulated device gets its own (see Device).
inline constexpr int32_t kMaxDeviceCount = 32;
inline constexpr uint64_t kDefaultMemoryBytes = uint64_t{1} << 30;
inline constexpr uint64_t kMinMemoryBytes = 256;  // one allocation granule
inline constexpr uint64_t kMaxMemoryBytes = uint64_t{1} << 40;

struct PluginConfig {
  int32_t device_count = kDefaultDeviceCount;
  uint64_t memory_bytes_per_device = kDefaultMemoryBytes;
};

// Unset variables keep their defaults; a malformed value is TF_INVALID_ARGUMENT naming the
// variable, so a typo fails plugin registration loudly instead of being ignored.
Status read_plugin_config_from_environment(PluginConfig* config);

}  // namespace reference_plugin
