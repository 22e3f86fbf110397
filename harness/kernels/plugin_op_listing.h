#pragma once
// The ops a plugin defines itself, listed in a child process (the plugin is never loaded into
// the caller): the plugin comes up in the mock core as for the kernel tier (kernel_target.h),
// whose TF_InitKernel is where plugins call TF_RegisterOpDefinition, and the definitions it
// registered come back as JSON: name, the input, output and attr spec strings exactly as the
// plugin gave them (types, type attrs, defaults and allowed values are in their grammar) and
// the op's flags. The caller parses them as TensorFlow does (plugin_ops.h).
#include <string>

#include "kernels/plugin_ops.h"

namespace conformance::kernels {

// Listing brings the plugin up once, as a kernel unit does: the same allowance.
inline constexpr unsigned kPluginOpsListingSeconds = 60;

// `timeout_seconds`: a plugin still busy then ends the child, and the listing says so.
PluginOpsListing ListPluginOps(const std::string& plugin_path, unsigned timeout_seconds);

}  // namespace conformance::kernels
