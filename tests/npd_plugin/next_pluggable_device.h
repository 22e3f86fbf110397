#pragma once
// The NextPluggableDevice module (TFNPD_InitPlugin) over host memory: the PJRT-based device path
// of newer TensorFlow releases. TensorFlow calls TFNPD_InitPlugin after SE_InitPlugin, keeps the
// returned TFNPD_Api for the life of the process and then looks for GetPjrtApi: only a plugin
// that also ships a PJRT plugin gets a device this way. This module has no PJRT client (no XLA
// compiler): TensorFlow 2.21.0 loads a plugin exporting it without GetPjrtApi, logs "PJRT plugin
// init function not found" and registers no NextPluggableDevice (measured), and the suite warns
// (load.npd.pjrt_entry). So it is not in the reference plugin, the template vendors copy; it is
// this fixture of its own (npd_entry.cc), which tests the table a vendor fills in
// (npd_test.cc). It reports statuses with the reference plugin's stream_executor/status.h.
#include "stream_executor/status.h"
#include "tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h"

namespace reference_plugin::npd {

// The device type and XLA compilation device this module announces.
inline constexpr char kNpdDeviceType[] = "REFDEV_NPD";
inline constexpr char kNpdCompilationDeviceName[] = "XLA_REFDEV_NPD";

// Fills params (device type, compilation device, priority) and returns the plugin's function
// table, which lives as long as the process.
const TFNPD_Api* init_plugin(TFNPD_PluginParams* params, Status* status);

}  // namespace reference_plugin::npd
