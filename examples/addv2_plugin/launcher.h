#pragma once
// How the example's kernels run on a stream: their work is a host callback queued through the
// StreamExecutor table of the device (the plugin's own, set when TensorFlow creates it; a unit
// test may point it at a mock device instead).
#include <functional>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace example {

struct Launcher {
  SP_StreamExecutor table{};
  SP_Device device{};
};

void SetLauncher(const Launcher& launcher);
// Queues `work` on `stream`; it receives the status the stream reports for it. False when the
// device refused to queue it (then `work` never runs).
bool Launch(SP_Stream stream, std::function<void(TF_Status*)> work);

}  // namespace example
