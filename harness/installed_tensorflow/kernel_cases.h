#pragma once
// One kernel case (kernel_case_dump's JSON: op, attrs, inputs as hex of their dense bytes) run
// through TensorFlow's eager API on one device: the plugin's, or TensorFlow's own CPU, the
// second oracle. Values are not judged here: the caller compares them with the case's
// tolerance (harness/kernels), outside TensorFlow's process.
#include <string>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// {"outputs": [{"dtype": TF_DataType, "shape": [...], "hex": ...}], "backing_device"} or
// {"error": {"call", "code", "message"}}.
nlohmann::json RunKernelCase(const TensorFlowCApi& api, TfeContext* context,
                             const nlohmann::json& kernel_case, const std::string& device);

}  // namespace tensorflow_driver
