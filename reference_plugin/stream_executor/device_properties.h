#pragma once
// The SP_DeviceFns table: properties TensorFlow shows in its device description.
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

Status fill_device_fns(SP_DeviceFns* device_fns);

}  // namespace reference_plugin
