#pragma once
// Failures that share their first failing call and problem are one root cause: a plugin whose
// create_stream never writes its handle breaks dozens of runtime checks, and the person fixing
// it needs to read "create_stream: out-parameter never written" once, with the checks it hit.
// Checks mark the culprit with details["failing_call"] and details["problem"]; a failure
// without both is its own root cause. Derived from results, never stored.
//
// A kernel's own callback (create_func, compute_func, ...) is one per op: two kernels computing
// wrong values are two defects, so a failure blamed on a kernel callback that names its op
// (details["kernel"]) groups by (call, problem, kernel). A device callback (deallocate,
// memcpy_htod, ...) is one for the whole plugin: its root causes group across kernels, whatever
// check found them, and never carry a kernel. A kernel-callback failure that cannot name its
// kernel (a whole model run as a graph in the installed TensorFlow) joins the root cause of the
// one kernel failing with the same call and problem; with several, it is a root cause of its own.
#include <string>
#include <string_view>
#include <vector>

#include "model/check_result.h"

namespace conformance {

inline constexpr const char* kFailingCallKey = "failing_call";
inline constexpr const char* kProblemKey = "problem";
inline constexpr const char* kKernelKey = "kernel";

struct RootCause {
  std::string call;                 // details["failing_call"]; empty for a failure without the keys
  std::string problem;              // details["problem"]; likewise
  std::string kernel;               // the op whose kernel callback is blamed; empty otherwise
  std::string message;              // the message of its first failure (suite order)
  std::vector<std::string> checks;  // every failing check it explains, suite order
};

// Whether `call` is a callback of one kernel (TF_NewKernelBuilder's create, compute and delete
// functions, or the async compute), as opposed to a callback of the device.
bool IsKernelCallback(std::string_view call);

// The kernel each failure's root cause is keyed by, index by index with `results` (empty for
// passes and the like): details["kernel"] when the blamed call is a kernel callback, for one
// without a kernel the lone kernel failing with its call and problem, else empty. Waivers match
// root causes by the same rule (waiver_apply.h).
std::vector<std::string> RootCauseKernels(const std::vector<CheckResult>& results);

// "compute_func (Relu): wrong values", "create_stream: out-parameter never written".
std::string RootCauseLabel(const RootCause& cause);

// Root causes of the fail, crash and timeout results, in order of their first failure.
std::vector<RootCause> GroupRootCauses(const std::vector<CheckResult>& results);

}  // namespace conformance
