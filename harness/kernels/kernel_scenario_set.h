#pragma once
// Kernel scenario files -> validated scenarios: the built-in ones compiled into the binary
// (conformance/kernels/*.yaml) plus every kernel scenario file (a top-level `kernels:` key)
// under the directories a vendor passes with --scenarios. All files are read before anything
// runs; any problem is a scenario::ScenarioFilesError (a usage error) listing every one.
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_scenario.h"
#include "kernels/plugin_ops.h"
#include "ops/registry.h"
#include "scenario/scenario_error.h"

namespace conformance::kernels {

// One file's scenarios; problems go to `errors`.
std::vector<KernelScenario> LoadKernelScenarioText(std::string_view text, const std::string& label,
                                                   scenario::ErrorList& errors,
                                                   const ops::OpRegistry* registry = nullptr,
                                                   PluginOps* plugin_ops = nullptr);

// Built-ins plus the kernel scenario files under `dirs` (recursively, sorted), checked for
// scenarios defined twice for one op across files. Throws ScenarioFilesError. `registry`,
// `plugin_ops`: see ParseKernelScenarioText (the built-in files name catalogue ops only).
std::vector<KernelScenario> LoadAllKernelScenarios(const std::vector<std::string>& dirs,
                                                   const ops::OpRegistry* registry = nullptr,
                                                   PluginOps* plugin_ops = nullptr);
std::vector<KernelScenario> BuiltinKernelScenarios();

}  // namespace conformance::kernels
