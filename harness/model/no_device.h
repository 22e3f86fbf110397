#pragma once
// A plugin that loads and reports 0 devices (get_device_count): TensorFlow loads it and
// registers no device. That is the usual state of a vendor's CI runner without the hardware
// (DirectML without D3D12). Everything that needs no device is judged (load, kernel
// registrations, graph optimizer, profiler); the tiers that drive a device cannot run, and the
// run says so everywhere instead of passing vacuously (run/run_report.h, run/exit_code.h).
#include <array>
#include <string_view>

namespace conformance {

// The check whose not_supported outcome says "0 devices" (validate/se_strict.cc).
inline constexpr std::string_view kDeviceCountCheck = "load.se.device_count.positive";

inline constexpr std::string_view kNoDeviceReason =
    "get_device_count reported 0 devices: TensorFlow loads the plugin and registers no device "
    "(no hardware or driver on this machine?), so the tiers that drive a device (runtime, "
    "kernels, models, stress) cannot run";

// Tiers whose every unit drives the plugin's device (prerequisite load.se.create_stream_executor).
inline constexpr std::array<std::string_view, 4> kDeviceTiers = {"runtime", "kernels", "models",
                                                                 "stress"};
// The rest: what a runner without the hardware can gate on (--tier load,graph,profiler).
inline constexpr std::string_view kDeviceFreeTiers = "load,graph,profiler";

inline bool IsDeviceTier(std::string_view tier) {
  for (std::string_view device_tier : kDeviceTiers) {
    if (tier == device_tier) return true;
  }
  return false;
}

}  // namespace conformance
