#pragma once
// The profiler TF_InitProfiler registers for REFDEV: start/stop a TraceRecorder session and
// hand its events to TensorFlow as a serialized XSpace (two-call collect_data_xspace).
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"

namespace reference_plugin::profiler {

Status register_profiler(TF_ProfilerRegistrationParams* params);

}  // namespace reference_plugin::profiler
