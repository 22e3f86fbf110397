#pragma once
// The kernels a plugin registers for its own device, listed in a child process (the plugin is
// never loaded into the caller): the plugin comes up in the mock core as for the kernel tier
// (kernel_target.h) and TF_InitKernel's registrations are read back. plugin_conformance
// --tensorflow uses it, before the suite runs, to know which (op, dtype) cells to generate cases
// for (generated_cases.h).
#include <string>
#include <variant>
#include <vector>

#include "kernels/generated_cases.h"

namespace conformance::kernels {

// The kernels without a label (TensorFlow runs a labelled one only for nodes that ask for it),
// in registration order; or why they could not be listed (the plugin does not come up in the
// mock core, dies, or is still busy after `timeout_seconds`).
std::variant<std::vector<RegisteredKernel>, std::string> ListRegisteredKernels(
    const std::string& plugin_path, unsigned timeout_seconds);

}  // namespace conformance::kernels
