#pragma once
// The NextPluggableDevice module (TFNPD_InitPlugin), which TensorFlow initialises right after the
// StreamExecutor module and before the kernels. TensorFlow validates only the returned status;
// everything else here is what TensorFlow reads without checking and would crash on.
#include <string>
#include <vector>

#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance::validate {

using TfnpdInitPluginFn = const void* (*)(void* params,
                                          void* status);  // TFNPD_PluginParams*, TF_Status*

std::vector<std::string> NpdModuleCheckIds();

using GetPjrtApiFn = const void* (*)();  // const PJRT_Api* (loader/entry_points.h's)

// `get_pjrt_api`: the plugin's GetPjrtApi, or NULL (TensorFlow then registers no NPD device).
// TensorFlow calls it right after TFNPD_InitPlugin and reads the table's head at once; `profile`
// says which struct_size and API version its release refuses (Profile::pjrt_api).
void RunNpdModule(TfnpdInitPluginFn init, GetPjrtApiFn get_pjrt_api, const Profile& profile,
                  CheckLog& log);

}  // namespace conformance::validate
