// tf_status.h: TF_Status handles. Semantics follow TensorFlow's absl-backed status: an OK
// status has an empty message and no payloads, whatever the caller passed.
#include "core/c_strings.h"
#include "core/status.h"

#include "core/live_handles.h"

namespace conformance::core {

void Status::SetPayload(std::string_view key, std::string_view value) {
  if (ok()) return;  // absl ignores payloads on OK statuses
  for (auto& [k, v] : payloads) {
    if (k == key) {
      v = std::string(value);
      return;
    }
  }
  payloads.emplace_back(std::string(key), std::string(value));
}

std::string_view CodeName(TF_Code code) {
  switch (code) {
    case TF_OK: return "OK";
    case TF_CANCELLED: return "CANCELLED";
    case TF_UNKNOWN: return "UNKNOWN";
    case TF_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case TF_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case TF_NOT_FOUND: return "NOT_FOUND";
    case TF_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case TF_PERMISSION_DENIED: return "PERMISSION_DENIED";
    case TF_UNAUTHENTICATED: return "UNAUTHENTICATED";
    case TF_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case TF_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case TF_ABORTED: return "ABORTED";
    case TF_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case TF_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case TF_INTERNAL: return "INTERNAL";
    case TF_UNAVAILABLE: return "UNAVAILABLE";
    case TF_DATA_LOSS: return "DATA_LOSS";
  }
  return "UNKNOWN_CODE";
}

std::string ToString(const Status& status) {
  if (status.ok()) return "OK";
  return std::string(CodeName(status.code)) + ": " + status.message;
}

}  // namespace conformance::core

namespace core = conformance::core;

extern "C" {

TF_Status* TF_NewStatus(void) {
  core::CountLive(&core::LiveHandles::statuses, +1);
  return new TF_Status{};
}

void TF_DeleteStatus(TF_Status* s) {
  if (s == nullptr) return;
  core::CountLive(&core::LiveHandles::statuses, -1);
  delete s;
}

void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  s->status = core::Status::Error(code, std::string(core::ViewOrEmpty(msg)));
}

void TF_SetPayload(TF_Status* s, const char* key, const char* value) {
  s->status.SetPayload(core::ViewOrEmpty(key), core::ViewOrEmpty(value));
}

void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor, void* capture) {
  // A snapshot, so a visitor that modifies the status cannot invalidate the iteration.
  const auto payloads = s->status.payloads;
  for (const auto& [key, value] : payloads) visitor(key.c_str(), value.c_str(), capture);
}

TF_Code TF_GetCode(const TF_Status* s) { return s->status.code; }

const char* TF_Message(const TF_Status* s) { return s->status.message.c_str(); }

}  // extern "C"
