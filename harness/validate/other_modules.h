#pragma once
// The kernel, graph-optimizer and profiler modules, in TensorFlow's order after the
// StreamExecutor module (spec §3.1, §5).
#include <optional>
#include <string>
#include <vector>

#include "validate/check_log.h"
#include "validate/se_module.h"

namespace conformance::ops {
class OpRegistry;
}  // namespace conformance::ops

namespace conformance::validate {

using InitKernelFn = void (*)();
using InitGraphFn = void (*)(void* params,
                             void* status);  // TP_OptimizerRegistrationParams*, TF_Status*
using InitProfilerFn = void (*)(void* params,
                                void* status);  // TF_ProfilerRegistrationParams*, TF_Status*

std::vector<std::string> KernelModuleCheckIds();
std::vector<std::string> GraphModuleCheckIds();
std::vector<std::string> ProfilerModuleCheckIds();

// `plugin` labels the core's recorder; `se` says which device type the plugin registered;
// `tensorflow_ops` is the op registry of the release the profile emulates.
void RunKernelModule(InitKernelFn init, const std::string& plugin, const SeModuleOutcome& se,
                     const ops::OpRegistry& tensorflow_ops, CheckLog& log);
void RunGraphModule(InitGraphFn init, CheckLog& log);
void RunProfilerModule(InitProfilerFn init, CheckLog& log);

}  // namespace conformance::validate
