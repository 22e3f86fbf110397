#pragma once
// The modules TensorFlow 2.10's RegisterPluggableDevicePlugin requires (measured on the 2.10.1
// wheel; 2.15.1 and 2.21.0 require none, tests/tensorflow agreement):
// - a device or a graph module: it looks up SE_InitPlugin, then TF_InitGraph, and when the
//   plugin exports neither it returns NOT_FOUND with both lookups' dlerror texts joined by a
//   space, before the kernel module runs (plugins exporting only TF_InitKernel, only
//   TF_InitProfiler, or no entry point);
// - a kernel module, after the graph module: a plugin without TF_InitKernel is refused with
//   NOT_FOUND and that lookup's dlerror text.
// TF_LoadPluggableDeviceLibrary then aborts the process. Profiles say which rules hold
// (`device_or_graph: required`, `kernel_module: required`).
#include <string>
#include <vector>

#include "loader/plugin_library.h"
#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance::validate {

inline constexpr const char* kDeviceOrGraphCheck = "load.modules.device_or_graph";
inline constexpr const char* kKernelModuleCheck = "load.modules.kernels";

// The checks of the rules the profile has, none under the others.
std::vector<std::string> RequiredModuleCheckIds(const Profile& profile);

// Under a profile with the rule: fails kDeviceOrGraphCheck with TensorFlow's NOT_FOUND status
// when the plugin exports neither SE_InitPlugin nor TF_InitGraph, and says whether TensorFlow
// stops loading there; passes it otherwise. Always false (nothing checked) under the others.
bool StopsWithoutDeviceOrGraph(const loader::PluginLibrary& library,
                               const loader::EntryPoints& entry_points, const Profile& profile,
                               CheckLog& log);

// The same for kKernelModuleCheck and TF_InitKernel.
bool StopsWithoutKernelModule(const loader::PluginLibrary& library,
                              const loader::EntryPoints& entry_points, const Profile& profile,
                              CheckLog& log);

}  // namespace conformance::validate
