#include "stream_executor/status.h"

namespace reference_plugin {

void report_status(TF_Status* out, const Status& status) {
  if (out == nullptr) return;  // nowhere to report; TensorFlow never passes NULL
  TF_SetStatus(out, status.code(), status.ok() ? "" : status.message().c_str());
}

Status status_from_tf(const TF_Status* status) {
  if (status == nullptr || TF_GetCode(status) == TF_OK) return Status();
  return Status(TF_GetCode(status), TF_Message(status));
}

}  // namespace reference_plugin
