#include "runtime/call_error.h"

#include "core/status.h"

namespace conformance::runtime {

const char* ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kPluginStatus: return "plugin_status";
    case ErrorKind::kReturnedFalse: return "returned_false";
    case ErrorKind::kOutParamNotWritten: return "out_param_not_written";
    case ErrorKind::kAllocationFailed: return "allocation_failed";
    case ErrorKind::kMissingCallback: return "missing_callback";
    case ErrorKind::kUnsupported: return "unsupported";
    case ErrorKind::kLoad: return "load";
    case ErrorKind::kUsage: return "usage";
  }
  return "unknown";
}

std::string Error::Describe() const {
  std::string text = callback.empty() ? std::string() : callback + ": ";
  if (kind == ErrorKind::kPluginStatus) text += std::string(core::CodeName(code)) + ": ";
  return text + message;
}

}  // namespace conformance::runtime
