#pragma once
// The process-wide index of live devices, for the one callback whose handles may belong to two
// devices: TensorFlow copies between two devices of this plugin on the source device's stream
// and makes it wait for the destination device's compute stream first, so
// create_stream_dependency(device 0, stream of device 0, stream of device 1) is a call it makes
// (measured, docs/tensorflow/calls.md).
#include <memory>

#include "stream_executor/status.h"
#include "stream_executor/stream.h"

namespace reference_plugin {

class Device;

namespace device_directory {

void add(const Device* device);
void remove(const Device* device);

// The live stream `handle` of any device of this plugin, or TF_INVALID_ARGUMENT.
Status find_stream(SP_Stream handle, std::shared_ptr<SP_Stream_st>* stream);

}  // namespace device_directory
}  // namespace reference_plugin
