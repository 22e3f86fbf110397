#pragma once
// The precision declaration file (--precision FILE): a YAML list of
//
//   - op: MatMul            # an op of the catalogue (specs/ops)
//     dtype: float          # a floating dtype the op allows
//     rtol: 1.0e-3          # any of rtol, atol, ulp (>= 0; at least one above 0)
//     reason: float32 MatMul runs in TF32 on tensor cores, as TensorFlow does on Ampere
//
// and how a declaration applies: the case checks of that op and dtype accept values within
// the scenario's tolerance or the declared one (each bound the larger of the two).
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_scenario.h"
#include "model/declared_precision.h"

namespace conformance::kernels {

// Every problem at once, as file:line:col: key 'x': message; throws
// scenario::ScenarioFilesError (a usage error) when there is any.
std::vector<DeclaredPrecision> ParseDeclaredPrecision(std::string_view text,
                                                      const std::string& label);
std::vector<DeclaredPrecision> LoadDeclaredPrecision(const std::string& path);

// The declaration for `op` and `dtype`, or nullptr.
const DeclaredPrecision* FindDeclaration(const std::vector<DeclaredPrecision>& declarations,
                                         const std::string& op, TF_DataType dtype);

// `tolerance` widened by `declaration` (each bound the larger); `tolerance` when nullptr.
Tolerance Widen(const Tolerance& tolerance, const DeclaredPrecision* declaration);

// "rtol=0.001 atol=0 ulp=0 (float32 MatMul runs in TF32 ...; precision.yaml:1)".
std::string DeclarationText(const DeclaredPrecision& declaration);

const std::vector<std::string>& DeclaredPrecisionKeys();

}  // namespace conformance::kernels
