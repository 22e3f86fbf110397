#pragma once
// failing_call / problem details for an error of the checked wrappers (runtime/call_error.h),
// in the phrases of runtime/problems.h, so C++ checks and scenarios blame a callback alike.
#include <map>
#include <string>

#include "runtime/call_error.h"
#include "runtime/problems.h"

namespace conformance::runtime {

// The phrase for a callback that failed in one of the ways the checked wrappers detect.
inline const char* ProblemOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kPluginStatus: return "returned an error status";
    case ErrorKind::kReturnedFalse: return "returned false";
    case ErrorKind::kOutParamNotWritten: return "out-parameter never written";
    case ErrorKind::kAllocationFailed: return "returned NULL";
    // The load tier's phrase too (validate/se_module.cc), so a NULL callback the load tier
    // reports and a runtime check then meets is one root cause, not two.
    case ErrorKind::kMissingCallback: return "callback not set (NULL)";
    case ErrorKind::kUnsupported: return "unsupported";
    case ErrorKind::kLoad: return "cannot be loaded";
    case ErrorKind::kUsage: return "harness usage error";
  }
  return "failed";
}

// details["failing_call"] / details["problem"] for an error of the checked wrappers.
inline std::map<std::string, std::string> BlameOf(const Error& error) {
  return {{"failing_call", error.callback.substr(error.callback.rfind('.') + 1)},
          {"problem", ProblemOf(error.kind)}};
}

}  // namespace conformance::runtime
