#pragma once
// TF_Buffer helpers: serialized protos handed to plugins.
#include <string_view>

#include "core/status.h"
#include "tensorflow/c/tf_buffer.h"

namespace conformance::core {

// TensorFlow's MessageToBuffer: fills an *empty* caller buffer with a malloc'd copy of
// `bytes` (and a deallocator that frees it). A buffer whose data is already set is
// INVALID_ARGUMENT "Passing non-empty TF_Buffer is invalid.".
Status WriteToBuffer(std::string_view bytes, TF_Buffer* out);

}  // namespace conformance::core
