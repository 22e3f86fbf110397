#pragma once
// One raw copy call of the plugin, by direction and kind (queued on a stream, or the
// synchronous callback), with everything it needs prepared up front so a timed loop issues
// nothing but the call itself.
#include <cstddef>
#include <cstdint>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::bench {

enum class Direction { kHtoD, kDtoH, kDtoD };

struct CopyOperands {
  const SP_StreamExecutor& se;
  const SP_Device* device;
  SP_Stream stream;       // asynchronous copies only
  SP_DeviceMemoryBase a;  // htod destination, dtoh source, dtod destination
  SP_DeviceMemoryBase b;  // dtod source
  std::byte* host;        // htod source, dtoh destination
  std::uint64_t size;
  TF_Status* status;  // the call's status; the caller checks it
};

void IssueCopy(CopyOperands& operands, Direction direction, bool async);

// "memcpy_htod", "sync_memcpy_dtoh", ...: the callback IssueCopy calls, for error messages.
const char* CopyCallbackName(Direction direction, bool async);

}  // namespace conformance::bench
