#pragma once
// A CPU kernel plugin in the installed TensorFlow (ITEX's CPU build, AMD's zentf): no
// SE_InitPlugin, so no device of its own; its kernels join or replace TensorFlow's CPU kernels
// in the same registry. Its kernel cases therefore run on TensorFlow's CPU device twice, in two
// processes: once with the plugin loaded (the plugin's result) and once in a second child that
// never loads it (TensorFlow's default CPU kernels, the oracle). The op registry of each process
// (TF_GetRegisteredKernelsForOp) tells which CPU kernels the plugin added, so a case whose
// (op, dtype) the plugin does not claim is known to have run TensorFlow's own kernel both times.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/plugin_session.h"
#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// Every CPU kernel the registry holds for `op`, each as {"key": its serialized KernelDef (hex),
// "priority", "label", "types": [TF_DataType allowed by its type constraints]}.
nlohmann::json CpuKernelsOf(const TensorFlowCApi& api, const std::string& op);

// In the plugin's child, after the load: every case of `request.kernel_cases_path` on
// TensorFlow's CPU device, one step "kernel_case" each ({id, shape_index, device_type "CPU",
// plugin}), then one step "cpu_kernels" with CpuKernelsOf each op of the cases.
void RunCasesWithCpuKernelPlugin(const TensorFlowCApi& api, TfeContext* context,
                                 const PluginRequest& request, std::FILE* report);

// The second child: TensorFlow without the plugin. The same cases on its CPU device (steps
// "baseline_case") and its CPU kernels per op (step "baseline_cpu_kernels").
void RunCpuBaselineSession(const TensorFlowCApi& api, const PluginRequest& request,
                           std::FILE* report);

// Folds the baseline child's report into the plugin's driver result: each kernel case gains
// "cpu" (the baseline's result for the same case), and "cpu_kernel_plugin" lists per op the
// CPU kernels the plugin added ({"ops": {op: [kernel...]}, "cpu_kernels_without_plugin": {op:
// count}, "baseline": "died..." when the second child failed).
void MergeCpuBaseline(nlohmann::json& result, const std::string& baseline_report,
                      const std::string& baseline_failure);

// Whether the driver result is a plugin TensorFlow loaded whose kernel cases ran on CPU.
bool RanAsCpuKernelPlugin(const nlohmann::json& result);

}  // namespace tensorflow_driver
