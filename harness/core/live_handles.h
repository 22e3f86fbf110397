#pragma once
// Small helpers the TF_* implementation uses to keep the Recorder current: live handle
// counts and calls that returned an error to a plugin.
#include <string>

#include "core/recorder.h"
#include "core/status.h"

namespace conformance::core {

inline void CountLive(int64_t LiveHandles::*kind, int64_t delta) {
  Recorder::Instance().CountHandle(kind, delta);
}

// Records `status` as a CallError of `function` about `subject` (an op or node name)
// when it is not OK.
inline void RecordCallError(const char* function, std::string subject, const Status& status) {
  if (status.ok()) return;
  CallError error;
  error.function = function;
  error.subject = std::move(subject);
  error.code = status.code;
  error.message = status.message;
  Recorder::Instance().AddCallError(std::move(error));
}

}  // namespace conformance::core
