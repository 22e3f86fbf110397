#pragma once
// Kernel scenario files (YAML) -> KernelScenarioFile. Every problem is reported with
// file:line:column, the key and, for misspelt keys and names, a did-you-mean; parsing goes on
// after a problem so one pass shows them all. A scenario with a problem is left out.
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_scenario.h"
#include "kernels/plugin_ops.h"
#include "ops/registry.h"
#include "scenario/scenario_error.h"

namespace conformance::kernels {

// A file is a kernel scenario file when its top level is a mapping with a `kernels:` key
// (runtime scenario files have `scenarios:` instead).
bool IsKernelScenarioText(std::string_view text);

// `registry`: TensorFlow's op registry ops outside the catalogue are checked against;
// `plugin_ops`: the candidate's own ops, for ops neither holds (see ConformToOpDefinition);
// nullptr: none.
KernelScenarioFile ParseKernelScenarioText(std::string_view text, const std::string& label,
                                           scenario::ErrorList& errors,
                                           const ops::OpRegistry* registry = nullptr,
                                           PluginOps* plugin_ops = nullptr);

// The vocabulary, for the documentation and schema tests.
const std::vector<std::string>& KernelFileKeys();
const std::vector<std::string>& KernelScenarioKeys();
const std::vector<std::string>& KernelInputKeys();

}  // namespace conformance::kernels
