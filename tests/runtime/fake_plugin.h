#pragma once
// A tiny in-process StreamExecutor for testing the runtime layer's poisoning: synchronous,
// host memory, and switches that make it misbehave in exactly one way each.
#include <cstddef>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace runtime_test {

struct FakeBehaviour {
  std::size_t stream_executor_struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  bool write_statuses = true;         // TF_SetStatus(OK) on success
  bool write_stream = true;           // create_stream writes *stream
  bool write_device_count = true;     // get_device_count writes *count
  bool write_allocation_size = true;  // allocate writes mem->size
  bool write_memory_usage = true;     // device_memory_usage writes *free / *total
};

// The behaviour the next SE_InitPlugin of the fake uses.
FakeBehaviour& Behaviour();
void FakeInitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status);

}  // namespace runtime_test
