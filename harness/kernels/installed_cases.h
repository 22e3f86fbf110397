#pragma once
// plugin_conformance --tensorflow: every kernel case the installed TensorFlow runs on the
// plugin's device and on its own CPU: the cases of the built-in scenarios and of the vendor's
// --scenarios folders (case_json.h), plus cases generated from TensorFlow's op definitions for
// the registered (op, dtype) cells no scenario covers (generated_cases.h).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/declared_precision.h"

namespace conformance::kernels {

// {"seed", "cases", "not_generated", "registrations": N, "not_registered_cases": M,
// "variable_cases": V | "registrations_error": why, "plugin_op_scenarios": P}. Scenarios of ops
// the plugin defines itself (TF_RegisterOpDefinition) load as in the kernel tier, and their P
// scenarios stay out: TensorFlow's CPU has no kernel of such an op to compare with. The plugin's
// registrations are listed in a child process: only the scenario cases of cells it registers go (M
// are left out), none with a variable input (V, which the driver cannot make), plus the generated
// ones. When they cannot be listed (the plugin does not come up in the mock core), every scenario
// case goes and TensorFlow says which have no kernel on the device (not_on_device). Throws
// scenario::ScenarioFilesError for a --scenarios folder that does not parse.
// Cases are generated from the op definitions of the installed `release` when the suite embeds
// its registry (specs/ops/registry), else from the newest one; "op_registry" names the one used.
nlohmann::json InstalledTensorFlowCases(const std::string& plugin,
                                        const std::vector<std::string>& scenario_dirs,
                                        const std::vector<DeclaredPrecision>& precision,
                                        std::uint64_t seed, const std::string& release = "");

}  // namespace conformance::kernels
