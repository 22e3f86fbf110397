// tf_buffer.h: TF_Buffer handles (counted as live buffers in the Recorder).
#include "core/buffer.h"

#include <cstdlib>
#include <cstring>

#include "core/live_handles.h"

namespace conformance::core {
namespace {
void FreeBytes(void* data, size_t) { std::free(data); }
}  // namespace

Status WriteToBuffer(std::string_view bytes, TF_Buffer* out) {
  if (out->data != nullptr) {
    return Status::Error(TF_INVALID_ARGUMENT, "Passing non-empty TF_Buffer is invalid.");
  }
  // malloc(0) may return NULL; one spare byte keeps "data set" distinguishable.
  void* copy = std::malloc(bytes.size() + 1);
  if (copy == nullptr) {
    return Status::Error(TF_RESOURCE_EXHAUSTED, "Failed to allocate memory to serialize message");
  }
  if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
  out->data = copy;
  out->length = bytes.size();
  out->data_deallocator = FreeBytes;
  return Status::Ok();
}

}  // namespace conformance::core

namespace core = conformance::core;

extern "C" {

TF_Buffer* TF_NewBuffer(void) {
  core::CountLive(&core::LiveHandles::buffers, +1);
  return new TF_Buffer{nullptr, 0, nullptr};
}

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  TF_Buffer* buffer = TF_NewBuffer();
  core::Status ignored = core::WriteToBuffer(
      std::string_view(static_cast<const char*>(proto), proto == nullptr ? 0 : proto_len), buffer);
  (void)ignored;  // the buffer is fresh, so only an out-of-memory could fail
  return buffer;
}

void TF_DeleteBuffer(TF_Buffer* buffer) {
  if (buffer == nullptr) return;
  if (buffer->data_deallocator != nullptr) {
    buffer->data_deallocator(const_cast<void*>(buffer->data), buffer->length);
  }
  core::CountLive(&core::LiveHandles::buffers, -1);
  delete buffer;
}

TF_Buffer TF_GetBuffer(TF_Buffer* buffer) { return *buffer; }

}  // extern "C"
