#pragma once
// The precision declaration file (--precision FILE): a YAML list of
//
//   - op: MatMul            # an op TensorFlow registers, or one a kernel scenario runs
//     dtype: float          # a floating dtype the op allows
//     scenario: plain       # optional: only this scenario of the op (default: all of them)
//     rtol: 1.0e-3          # any of rtol, atol, ulp (>= 0; at least one above 0)
//     reason: float32 MatMul runs in TF32 on tensor cores, as TensorFlow does on Ampere
//
// and how a declaration applies: the case checks of that op and dtype (of that scenario, when
// one is named) accept values within the scenario's tolerance or the declared one (each bound
// the larger of the two). A scenario's own declaration wins over its op's.
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_scenario.h"
#include "kernels/plugin_ops.h"
#include "model/declared_precision.h"
#include "ops/registry.h"

namespace conformance::kernels {

// Every problem at once, as file:line:col: key 'x': message; throws
// scenario::ScenarioFilesError (a usage error) when there is any.
// `scenarios`: the kernel scenarios a run knows (built-in and --scenarios); a declared
// scenario must be one of its op's. `registry`: TensorFlow's ops, besides the catalogue's; an op
// neither knows must be one a scenario runs (an op the plugin defines), and its dtype one of the
// floating dtypes its scenarios run.
std::vector<DeclaredPrecision> ParseDeclaredPrecision(std::string_view text,
                                                      const std::string& label,
                                                      const std::vector<KernelScenario>& scenarios,
                                                      const ops::OpRegistry* registry = nullptr);
// Reads `path`, checking scenario names against the built-in scenarios and those under
// `scenario_dirs` (--scenarios), whose ops may be the plugin's own (`plugin_ops`, see
// LoadAllKernelScenarios).
std::vector<DeclaredPrecision> LoadDeclaredPrecision(const std::string& path,
                                                     const std::vector<std::string>& scenario_dirs,
                                                     PluginOps* plugin_ops = nullptr);

// The declaration for scenario `scenario` of `op` and `dtype`, else the op's, or nullptr.
const DeclaredPrecision* FindDeclaration(const std::vector<DeclaredPrecision>& declarations,
                                         const std::string& op, TF_DataType dtype,
                                         const std::string& scenario);

// `tolerance` widened by `declaration` (each bound the larger); `tolerance` when nullptr.
Tolerance Widen(const Tolerance& tolerance, const DeclaredPrecision* declaration);

// "rtol=0.001 atol=0 ulp=0 (float32 MatMul runs in TF32 ...; precision.yaml:1)".
std::string DeclarationText(const DeclaredPrecision& declaration);

const std::vector<std::string>& DeclaredPrecisionKeys();

}  // namespace conformance::kernels
