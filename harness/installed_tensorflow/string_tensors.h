#pragma once
// String tensors (TF_STRING) between a case's JSON and the installed TensorFlow: its elements
// are TF_TString objects (tensorflow/core/platform/ctstring.h, the layout TensorFlow's own
// header-inline functions use), so the driver writes and reads them in the tensor's memory.
// A case's string tensor is {"dtype": "string", "shape", "strings": [hex of each element]}
// (harness/kernels/string_values.h); a result the same with the dtype's number.
#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// A host string tensor holding the case's elements (the caller deletes it).
TfTensor* StringTensorOf(const TensorFlowCApi& api, const nlohmann::json& tensor);
// A result string tensor as {"dtype", "shape", "strings"}.
nlohmann::json StringOutputJson(const TensorFlowCApi& api, TfTensor* tensor);

}  // namespace tensorflow_driver
