#pragma once
// What the installed TensorFlow did with the plugin, as results of their own, so that it counts
// whatever the emulated verdict says (TensorFlow is the ground truth for the release the vendor
// ships against): TensorFlow refusing the plugin, the plugin's process dying (crash, abort, hang)
// while TensorFlow loads it or runs the session's own steps, and the driver itself dying. A death
// in a kernel case or a model is filed by their judges (kernels/tensorflow_cpu_oracle.h,
// models/installed_model_graphs.h); docs/tensorflow/installed_deaths.md has the whole table.
#include <vector>

#include <nlohmann/json.hpp>

#include "model/check_result.h"

namespace tensorflow_driver {

// TensorFlow's load of the plugin with its first device (the first eager context creates it):
// fail with TensorFlow's status when it refuses or aborts, crash or timeout when the process
// died there.
inline constexpr const char* kLoadInTensorFlowCheckId = "load.in_tensorflow";
// The rest of the plugin's session there outside a kernel case or a model (the copies of every
// dtype, the first float ops, the session's end) and the driver itself: crash or timeout.
inline constexpr const char* kSessionInTensorFlowCheckId = "runtime.session.in_tensorflow";
// The session's copies (each fixed-size dtype to the plugin's device and back): fail when one
// came back with other bytes, the dtype named; the death of a copy is the session check's.
inline constexpr const char* kCopyInTensorFlowCheckId = "runtime.copy.in_tensorflow";
// The session's first float ops (AddV2, Mul, Sub, Neg), each on the plugin's device and on
// TensorFlow's CPU: fail when the plugin's bytes differ, blamed on that op's compute_func.
inline constexpr const char* kFloatOpsInTensorFlowCheckId = "runtime.float_ops.in_tensorflow";

// At most one result from the driver's JSON (driver_outcome.h, or DriverDiedResult): none when
// TensorFlow loaded the plugin and its session went to its end or died in a kernel case or model.
std::vector<conformance::CheckResult> InstalledSessionResults(const nlohmann::json& driver_result);

// The session's checks, as units of the run report them: InstalledSessionResults's result, and
// for the other check pass (TensorFlow loaded the plugin; its session's own steps went to their
// end, or to a kernel case or model whose judge files the death) or skipped (not reached: the
// load failed, or the driver died before saying anything); and kCopyInTensorFlowCheckId's, from
// the copies the driver reported: fail on the first that came back changed, else pass when any
// ran, else skipped; and kFloatOpsInTensorFlowCheckId's likewise from the ops.
std::vector<conformance::CheckResult> InstalledSessionChecks(const nlohmann::json& driver_result);

// How the plugin's process ended, from the driver's `died`: "died of signal 11 (SIGSEGV)", "made
// no progress for 5000 ms (the per-step limit, --timeout) and was killed", ...
std::string HowItDied(const nlohmann::json& died);

}  // namespace tensorflow_driver
