#pragma once
// The kernels a plugin registers for its own device, listed in a child process (the plugin is
// never loaded into the caller): the plugin comes up in the mock core as for the kernel tier
// (kernel_target.h) and TF_InitKernel's registrations are read back. plugin_conformance
// --tensorflow uses it, before the suite runs, to know which (op, dtype) cells to generate cases
// for (generated_cases.h).
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/generated_cases.h"

namespace conformance::kernels {

// The kernels without a label (TensorFlow runs a labelled one only for nodes that ask for it),
// in registration order; or why they could not be listed (the plugin does not come up in the
// mock core, dies, or is still busy after `timeout_seconds`).
std::variant<std::vector<RegisteredKernel>, std::string> ListRegisteredKernels(
    const std::string& plugin_path, unsigned timeout_seconds);

// What the kernel tier knows of a plugin's registrations before any of its units runs, from one
// listing child: the unlabelled kernels (as ListRegisteredKernels), and every op with a kernel
// for the plugin's own device, labelled or not, so that a scenario's op the plugin does not
// register is said not_supported without a child, a reference run and a bring-up of its own.
struct KernelListing {
  bool exports_init_kernel = false;
  std::string device_type;
  std::vector<RegisteredKernel> unlabelled;
  std::set<std::string> own_device_ops;
};
std::variant<KernelListing, std::string> ListKernels(const std::string& plugin_path,
                                                     unsigned timeout_seconds);

// The (op, dtype) cells of `kernels`, each once, in registration order, the dtype spelled as in
// check ids (CellDtype names it, `registry` giving the op's definition where it has one); "*"
// for a kernel of every dtype.
std::vector<std::pair<std::string, std::string>> RegisteredCellNames(
    const std::vector<RegisteredKernel>& kernels, const ops::OpRegistry* registry);

}  // namespace conformance::kernels
