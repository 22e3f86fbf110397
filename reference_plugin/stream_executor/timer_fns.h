#pragma once
// The SP_TimerFns table (create_timer_fns), implemented in timer_callbacks.cc.
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

Status fill_timer_fns(SP_TimerFns* timer_fns);

}  // namespace reference_plugin
