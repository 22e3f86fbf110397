#pragma once
// A kernel case as JSON (case_json.h, generated_cases.h) back into the case the runner makes
// (case_runner.h): the kernel tier runs the generated cases this way, the recorded oracle
// (recorded_oracle.h) holding what TensorFlow's CPU computed for the same JSON.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/case_runner.h"
#include "ops/op_def.h"

namespace conformance::kernels {

// The bytes a tensor's "hex" spells (case_json.h's Hex, read back).
std::vector<std::uint8_t> BytesFromHex(const std::string& hex);

// A result tensor's bytes: its "hex", or its one element's bytes ("every") repeated for each
// element of its "shape" (how the record writes an output whose elements are all the same:
// specs/ops/record/README.md).
std::vector<std::uint8_t> RecordedTensorBytes(const nlohmann::json& tensor);

// The case, its output dtypes from `def` (a fixed dtype, or the type attr the case sets); or
// why it cannot be made (an attr kind or a dtype the JSON does not spell).
std::variant<CaseSpec, std::string> CaseFromJson(const nlohmann::json& kernel_case,
                                                 const ops::OpDef& def);

}  // namespace conformance::kernels
