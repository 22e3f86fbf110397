#pragma once
// The SP_StreamExecutor function table. Each file that implements a group of callbacks
// exports one install_* function that puts its callbacks into the table; nothing else about
// those callbacks is visible outside their file.
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

void install_memory_callbacks(SP_StreamExecutor& table);  // memory_callbacks.cc
void install_stream_callbacks(SP_StreamExecutor& table);  // stream_callbacks.cc
void install_event_callbacks(SP_StreamExecutor& table);   // event_callbacks.cc
void install_timer_callbacks(SP_StreamExecutor& table);   // timer_callbacks.cc
void install_memcpy_callbacks(SP_StreamExecutor& table);  // memcpy_callbacks.cc
void install_memset_callbacks(SP_StreamExecutor& table);  // memset_callbacks.cc
void install_host_callback(SP_StreamExecutor& table);     // host_callback.cc

// Fills TensorFlow's table (create_stream_executor). Fails with TF_FAILED_PRECONDITION when
// the core's struct is too small for this layout (an older TensorFlow).
Status fill_stream_executor(SP_StreamExecutor* table);

}  // namespace reference_plugin
