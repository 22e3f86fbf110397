#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/recorder.h"
#include "isolate/in_flight.h"
#include "validate/other_modules.h"

namespace conformance::validate {
namespace {

using core::KernelRegistration;
using core::Recorder;

std::string Describe(const KernelRegistration& kernel) {
  std::string text = kernel.op_name + " on " + kernel.device_type;
  for (const auto& [attr, type] : kernel.type_constraints) text += " " + attr + "=" + std::to_string(type);
  if (!kernel.label.empty()) text += " label=" + kernel.label;
  return text;
}

void CheckTypeConstraints(const std::string& plugin, CheckLog& log) {
  std::string problems;
  for (const auto& error : Recorder::Instance().CallErrors()) {
    if (error.plugin != plugin || error.function != "TF_KernelBuilder_TypeConstraint") continue;
    problems += (problems.empty() ? "" : "; ") + error.subject + ": " + error.message;
  }
  log.Expect("load.kernels.type_constraints", problems.empty(),
             "TF_KernelBuilder_TypeConstraint failed (the kernel was registered without that constraint and "
             "matches every type): " + problems);
}

void CheckDeviceTypes(const std::vector<KernelRegistration>& kernels, const SeModuleOutcome& se, CheckLog& log) {
  if (se.exported && !se.device_type) {
    log.Skip("load.kernels.device_type", "the plugin's device type is unknown (SP_Platform.type is not set)");
    return;
  }
  const std::optional<std::string>& device_type = se.device_type;
  std::set<std::string> known = {"CPU", "GPU"};
  if (device_type) known.insert(*device_type);
  std::string problems;
  for (const auto& kernel : kernels) {
    if (!known.contains(kernel.device_type)) problems += (problems.empty() ? "" : "; ") + Describe(kernel);
  }
  log.Expect("load.kernels.device_type", problems.empty(),
             "kernels registered for a device type nobody provides (expected " +
                 (device_type ? *device_type : std::string("CPU or GPU")) + "): " + problems);
}

void CheckDuplicates(const std::vector<KernelRegistration>& kernels, CheckLog& log) {
  std::map<std::tuple<std::string, std::string, std::multiset<std::pair<std::string, int>>, std::string>, int> seen;
  std::string problems;
  for (const auto& kernel : kernels) {
    std::multiset<std::pair<std::string, int>> constraints(kernel.type_constraints.begin(),
                                                           kernel.type_constraints.end());
    if (++seen[{kernel.op_name, kernel.device_type, constraints, kernel.label}] == 2) {
      problems += (problems.empty() ? "" : "; ") + Describe(kernel);
    }
  }
  log.Expect("load.kernels.duplicates", problems.empty(), "kernels registered more than once: " + problems);
}

}  // namespace

std::vector<std::string> KernelModuleCheckIds() {
  return {"load.kernels.init", "load.kernels.type_constraints", "load.kernels.device_type",
          "load.kernels.duplicates", "load.kernels.builders_released"};
}

void RunKernelModule(InitKernelFn init, const std::string& plugin, const SeModuleOutcome& se, CheckLog& log) {
  if (init == nullptr) {
    for (const auto& id : KernelModuleCheckIds()) log.NotSupported(id, "the plugin does not export TF_InitKernel");
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
  std::vector<KernelRegistration> kernels;
  for (auto& kernel : recorder.Kernels()) {
    if (kernel.plugin == plugin) kernels.push_back(std::move(kernel));
  }
  log.Pass("load.kernels.init", {{"kernels_registered", std::to_string(kernels.size())}});
  CheckTypeConstraints(plugin, log);
  CheckDeviceTypes(kernels, se, log);
  CheckDuplicates(kernels, log);
  const auto leaked = recorder.Live().kernel_builders - builders_before;
  log.Expect("load.kernels.builders_released", leaked == 0,
             std::to_string(leaked) + " TF_KernelBuilder(s) were neither registered nor deleted");
}

}  // namespace conformance::validate
