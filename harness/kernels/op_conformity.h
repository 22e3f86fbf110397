#pragma once
// A kernel scenario checked against the definition of its op (the op catalogue, specs/ops):
// the op exists, the inputs are its arguments in its order, every attr is one of its attrs with
// a value of the attr's type, and every dtype of the matrix is one the op allows. Without this
// a misspelt attr reaches the kernel, which rejects it, and the scenario's own mistake is blamed
// on the plugin ("expected error not reported", or a wrong error code).
#include "kernels/kernel_scenario.h"
#include "kernels/plugin_ops.h"
#include "ops/registry.h"
#include "scenario/scenario_error.h"

namespace conformance::kernels {

// Adds one error per problem (file:line:col, the key, a did-you-mean where one fits); returns
// false when there was any. Integer values of float attrs become floats (`alpha: 1`). An op
// outside the catalogue is looked up in `registry` (TensorFlow's whole op registry of the
// profile's release), so a vendor may write scenarios for any op TensorFlow defines; nullptr:
// the catalogue only. An op neither holds is looked up in `plugin_ops`, the ops the candidate
// plugin defines itself (listed then, once); nullptr: none. Sets scenario.definition (and
// scenario.plugin_definition for a plugin's own op).
bool ConformToOpDefinition(KernelScenario& scenario, scenario::ErrorList& errors,
                           const ops::OpRegistry* registry = nullptr,
                           PluginOps* plugin_ops = nullptr);

}  // namespace conformance::kernels
