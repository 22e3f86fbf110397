#pragma once
// The SP_StreamExecutor callbacks of a synchronous device whose memory is host memory: every
// copy, fill and wait has finished when its call returns. Shared by the test plugins that model
// such a device (tests/legal_patterns, tests/generations); their signatures are the same in
// every header generation, so each plugin compiles these against its own variant headers.
#include <cstdint>
#include <cstring>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::test_support::host_memory {

inline void Ok(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

inline void CopyDtoH(const SP_Device*, SP_Stream, void* dst, const SP_DeviceMemoryBase* src,
                     uint64_t size, TF_Status* status) {
  std::memcpy(dst, src->opaque, size);
  Ok(status);
}
inline void CopyHtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* dst, const void* src,
                     uint64_t size, TF_Status* status) {
  std::memcpy(dst->opaque, src, size);
  Ok(status);
}
inline void CopyDtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* dst,
                     const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
  std::memmove(dst->opaque, src->opaque, size);
  Ok(status);
}
inline void SyncDtoH(const SP_Device*, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
                     TF_Status* status) {
  std::memcpy(dst, src->opaque, size);
  Ok(status);
}
inline void SyncHtoD(const SP_Device*, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
                     TF_Status* status) {
  std::memcpy(dst->opaque, src, size);
  Ok(status);
}
inline void SyncDtoD(const SP_Device*, SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
                     uint64_t size, TF_Status* status) {
  std::memmove(dst->opaque, src->opaque, size);
  Ok(status);
}

// Fills (mem_zero, memset, memset32: TF 2.7 and later headers).
inline void Zero(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint64_t size,
                 TF_Status* status) {
  std::memset(location->opaque, 0, size);
  Ok(status);
}
inline void Fill8(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint8_t pattern,
                  uint64_t size, TF_Status* status) {
  std::memset(location->opaque, pattern, size);
  Ok(status);
}
inline void Fill32(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, uint32_t pattern,
                   uint64_t size, TF_Status* status) {
  auto* bytes = static_cast<unsigned char*>(location->opaque);
  for (uint64_t i = 0; i < size; ++i)
    bytes[i] = static_cast<unsigned char>(pattern >> (8 * (i % 4)));
  Ok(status);
}

// Waits: nothing is ever pending.
inline void WaitForEvent(const SP_Device*, SP_Stream, SP_Event, TF_Status* status) { Ok(status); }
inline void StreamDependency(const SP_Device*, SP_Stream, SP_Stream, TF_Status* status) {
  Ok(status);
}
inline void WaitEvent(const SP_Device*, SP_Event, TF_Status* status) { Ok(status); }
inline void WaitStream(const SP_Device*, SP_Stream, TF_Status* status) { Ok(status); }
inline void WaitDevice(const SP_Device*, TF_Status* status) { Ok(status); }

}  // namespace conformance::test_support::host_memory
