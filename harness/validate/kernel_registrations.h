#pragma once
// Load-tier checks on what TF_InitKernel registered (load.kernels.*): each kernel against the op
// it is for (TensorFlow's op registry, or the plugin's own ops.h definition), the plugin's device
// type and the other kernels; and the plugin's ops.h op definitions and shape functions themselves.
#include <string>
#include <vector>

#include "core/recorder.h"
#include "validate/check_log.h"
#include "validate/se_module.h"

namespace conformance::ops {
class OpRegistry;
}  // namespace conformance::ops

namespace conformance::validate {

struct PluginRegistrations {
  std::vector<core::KernelRegistration> kernels;
  std::vector<core::OpRegistration> ops;  // through ops.h
};

std::vector<std::string> KernelRegistrationCheckIds();
// Each kernel is judged against the plugin's own ops.h definition of its op, else against
// `tensorflow_ops`, the op registry of the release the profile emulates.
void CheckKernelRegistrations(const PluginRegistrations& registered, const SeModuleOutcome& se,
                              const ops::OpRegistry& tensorflow_ops, CheckLog& log);

std::vector<std::string> PluginOpCheckIds();
void CheckPluginOps(const PluginRegistrations& registered, CheckLog& log);

}  // namespace conformance::validate
