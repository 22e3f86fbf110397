#pragma once
// The NextPluggableDevice module (TFNPD_InitPlugin), which TensorFlow initialises right after the
// StreamExecutor module and before the kernels. TensorFlow validates only the returned status;
// everything else here is what TensorFlow reads without checking and would crash on.
#include <string>
#include <vector>

#include "validate/check_log.h"

namespace conformance::validate {

using TfnpdInitPluginFn = const void* (*)(void* params,
                                          void* status);  // TFNPD_PluginParams*, TF_Status*

std::vector<std::string> NpdModuleCheckIds();

// `has_pjrt_entry`: the plugin exports GetPjrtApi (TensorFlow registers no device without it).
void RunNpdModule(TfnpdInitPluginFn init, bool has_pjrt_entry, CheckLog& log);

}  // namespace conformance::validate
