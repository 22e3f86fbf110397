#pragma once
// What the driver child shares between its plugin session and its CPU-kernel-plugin run: the
// CPU device's full name, the placement policy, and how a step is reported.
#include <cstdio>

#include <nlohmann/json.hpp>

namespace tensorflow_driver {

inline constexpr const char* kCpuDevice = "/job:localhost/replica:0/task:0/device:CPU:0";
inline constexpr int kDevicePlacementSilent = 2;  // TFE_DEVICE_PLACEMENT_SILENT

// One JSON line per step, flushed at once: the parent reads how far a child got even when
// TensorFlow aborts or the plugin crashes it right after.
inline void Emit(std::FILE* report, const nlohmann::json& line) {
  std::fputs((line.dump() + "\n").c_str(), report);
  std::fflush(report);
}

}  // namespace tensorflow_driver
