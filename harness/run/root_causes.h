#pragma once
// Failures that share their first failing call and problem are one root cause: a plugin whose
// create_stream never writes its handle breaks dozens of runtime checks, and the person fixing
// it needs to read "create_stream: out-parameter never written" once, with the checks it hit.
// Checks mark the culprit with details["failing_call"] and details["problem"]; a failure
// without both is its own root cause. Derived from results, never stored.
#include <string>
#include <vector>

#include "model/check_result.h"

namespace conformance {

inline constexpr const char* kFailingCallKey = "failing_call";
inline constexpr const char* kProblemKey = "problem";

struct RootCause {
  std::string call;                 // details["failing_call"]; empty for a failure without the keys
  std::string problem;              // details["problem"]; likewise
  std::string message;              // the message of its first failure (suite order)
  std::vector<std::string> checks;  // every failing check it explains, suite order
};

// Root causes of the fail, crash and timeout results, in order of their first failure.
std::vector<RootCause> GroupRootCauses(const std::vector<CheckResult>& results);

}  // namespace conformance
