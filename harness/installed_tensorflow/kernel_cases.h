#pragma once
// One kernel case (kernel_case_dump's JSON: op, attrs, inputs as hex of their dense bytes) run
// through TensorFlow's eager API on one device: the plugin's, or TensorFlow's own CPU, the
// second oracle. Values are not judged here: the caller compares them with the case's
// tolerance (harness/kernels), outside TensorFlow's process.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// {"outputs": [{"dtype": TF_DataType, "shape": [...], "hex": ...}], "backing_device"} or
// {"error": {"call", "code", "message"}}.
nlohmann::json RunKernelCase(const TensorFlowCApi& api, TfeContext* context,
                             const nlohmann::json& kernel_case, const std::string& device);

// The case's run in float64 (harness/kernels/float64_runs.h: a half or bfloat16 sum's inputs
// widened to double) on TensorFlow's CPU, where the case carries one and its own CPU run
// (`cpu`) gave outputs; nullopt otherwise. A plugin that sums in float agrees with it where this
// release's CPU sums otherwise.
std::optional<nlohmann::json> RunFloat64Run(const TensorFlowCApi& api, TfeContext* context,
                                            const nlohmann::json& kernel_case,
                                            const nlohmann::json& cpu);

// TF_DataType of the dtype names kernel scenarios use (kernels/dtype_values.h spells them).
std::optional<TfDataType> DataTypeOfName(const std::string& name);

// The bytes a case's "hex" spells.
std::vector<unsigned char> BytesOfHex(const std::string& hex);

// A result tensor as {"dtype": TF_DataType, "shape": [...], "hex": ...}.
nlohmann::json OutputJson(const TensorFlowCApi& api, TfTensor* tensor);

}  // namespace tensorflow_driver
