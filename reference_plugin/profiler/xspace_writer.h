#pragma once
// Serializes trace events as a tensorflow.profiler.XSpace (xplane.proto field numbers): one
// XPlane per device ("/device:REFDEV:<ordinal>"), one XLine per stream, one XEvent per copy
// or kernel, event names in the plane's event_metadata.
#include <string>
#include <vector>

#include "profiler/trace_recorder.h"

namespace reference_plugin::profiler {

std::string serialize_xspace(const std::vector<TraceEvent>& events);

}  // namespace reference_plugin::profiler
