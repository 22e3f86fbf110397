#include <string>
#include <vector>

#include "core/recorder.h"
#include "isolate/in_flight.h"
#include "ops/registry.h"
#include "validate/kernel_registrations.h"
#include "validate/other_modules.h"

namespace conformance::validate {
namespace {

using core::Recorder;

void CheckTypeConstraintCalls(const std::string& plugin, CheckLog& log) {
  std::string problems;
  for (const auto& error : Recorder::Instance().CallErrors()) {
    if (error.plugin != plugin || error.function != "TF_KernelBuilder_TypeConstraint") continue;
    problems += (problems.empty() ? "" : "; ") + error.subject + ": " + error.message;
  }
  log.Expect("load.kernels.type_constraints", problems.empty(),
             "TF_KernelBuilder_TypeConstraint failed (the kernel was registered without that "
             "constraint and "
             "matches every type): " +
                 problems);
}

PluginRegistrations RegistrationsOf(const std::string& plugin) {
  PluginRegistrations registered;
  for (auto& kernel : Recorder::Instance().Kernels()) {
    if (kernel.plugin == plugin) registered.kernels.push_back(std::move(kernel));
  }
  for (auto& op : Recorder::Instance().Ops()) {
    if (op.plugin == plugin) registered.ops.push_back(std::move(op));
  }
  return registered;
}

}  // namespace

std::vector<std::string> KernelModuleCheckIds() {
  std::vector<std::string> ids = {"load.kernels.init", "load.kernels.type_constraints"};
  for (auto& id : PluginOpCheckIds()) ids.push_back(std::move(id));
  for (auto& id : KernelRegistrationCheckIds()) ids.push_back(std::move(id));
  ids.push_back("load.kernels.builders_released");
  return ids;
}

void RunKernelModule(InitKernelFn init, const std::string& plugin, const SeModuleOutcome& se,
                     const ops::OpRegistry& tensorflow_ops, CheckLog& log) {
  if (init == nullptr) {
    for (const auto& id : KernelModuleCheckIds())
      log.NotSupported(id, "the plugin does not export TF_InitKernel");
    return;
  }
  Recorder& recorder = Recorder::Instance();
  recorder.SetCurrentPlugin(plugin);
  const auto builders_before = recorder.Live().kernel_builders;
  log.Begin("load.kernels.init");
  {
    in_flight::PluginCall call("TF_InitKernel");
    init();
  }
  const PluginRegistrations registered = RegistrationsOf(plugin);
  log.Pass("load.kernels.init", {{"kernels_registered", std::to_string(registered.kernels.size())},
                                 {"ops_defined", std::to_string(registered.ops.size())}});
  CheckTypeConstraintCalls(plugin, log);
  CheckPluginOps(registered, log);
  CheckKernelRegistrations(registered, se, tensorflow_ops, log);
  const auto leaked = recorder.Live().kernel_builders - builders_before;
  log.Expect("load.kernels.builders_released", leaked == 0,
             std::to_string(leaked) + " TF_KernelBuilder(s) were neither registered nor deleted");
}

}  // namespace conformance::validate
