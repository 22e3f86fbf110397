#pragma once
// Kernel cases as JSON: op, attrs, inputs (hex of their dense bytes, exact for every dtype, NaN
// payloads included; a string tensor's elements as "strings", the hex of each), outputs,
// tolerance, expectation. kernel_case_dump writes them for the
// TensorFlow oracle; plugin_conformance --tensorflow hands them to the installed TensorFlow
// (harness/installed_tensorflow/kernel_cases.h) and judges what came back here.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/host_tensor.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

std::string Hex(const std::vector<std::uint8_t>& bytes);
// The attr kinds kernel scenarios and model files can write (kernel_parser.cc, model_parser.cc);
// anything else is named ("unsupported") so a script fails loudly instead of running another op.
nlohmann::json AttrJson(const core::AttrValue& value);
nlohmann::json TensorJson(const HostTensor& tensor);

// One case of a scenario: its dtype, its `shape` entry, inputs from `seed`.
nlohmann::json CaseJson(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape,
                        std::uint64_t seed);

// Every case of `scenarios` ({"seed", "cases": [...]}).
nlohmann::json CasesJson(const std::vector<KernelScenario>& scenarios, std::uint64_t seed);

}  // namespace conformance::kernels
