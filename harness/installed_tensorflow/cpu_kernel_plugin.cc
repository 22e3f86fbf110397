#include "installed_tensorflow/cpu_kernel_plugin.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "installed_tensorflow/driver_steps.h"
#include "installed_tensorflow/kernel_cases.h"
#include "installed_tensorflow/proto_wire.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

// The DataTypes an AttrValue allows: its `type` (6) or its list's types (1 → 6, packed or not).
void AllowedTypes(std::string_view attr_value, json& types) {
  WireReader reader(attr_value);
  for (int field = 0, wire = 0; reader.Next(field, wire);) {
    if (field == 6 && wire == 0) {
      types.push_back(reader.Varint());
    } else if (field == 1 && wire == 2) {
      WireReader list(reader.Bytes());
      for (int item = 0, item_wire = 0; list.Next(item, item_wire);) {
        if (item == 6 && item_wire == 2) {
          WireReader packed(list.Bytes());
          while (!packed.AtEnd()) types.push_back(packed.Varint());
        } else if (item == 6 && item_wire == 0) {
          types.push_back(list.Varint());
        } else {
          list.Skip(item_wire);
        }
      }
    } else {
      reader.Skip(wire);
    }
  }
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 15]);
  }
  return hex;
}

// One KernelDef, or null when it is not for CPU.
json CpuKernel(std::string_view kernel_def) {
  json kernel = {{"key", Hex(kernel_def)}, {"priority", 0}, {"label", ""}};
  json types = json::array();
  std::string device_type;
  WireReader reader(kernel_def);
  for (int field = 0, wire = 0; reader.Next(field, wire);) {
    if (field == 2 && wire == 2) {
      device_type = std::string(reader.Bytes());
    } else if (field == 3 && wire == 2) {
      WireReader constraint(reader.Bytes());
      for (int item = 0, item_wire = 0; constraint.Next(item, item_wire);) {
        if (item == 2 && item_wire == 2) {
          AllowedTypes(constraint.Bytes(), types);
        } else {
          constraint.Skip(item_wire);
        }
      }
    } else if (field == 5 && wire == 2) {
      kernel["label"] = std::string(reader.Bytes());
    } else if (field == 6 && wire == 0) {
      kernel["priority"] = static_cast<std::int32_t>(reader.Varint());
    } else {
      reader.Skip(wire);
    }
  }
  if (device_type != "CPU") return nullptr;
  kernel["types"] = std::move(types);
  return kernel;
}

std::set<std::string> OpsOf(const json& dump) {
  std::set<std::string> ops;
  for (const json& kernel_case : dump["cases"]) ops.insert(kernel_case.value("op", ""));
  return ops;
}

json ReadCases(const PluginRequest& request, std::FILE* report) {
  std::ifstream in(request.kernel_cases_path);
  json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded() || !dump.contains("cases")) {
    Emit(report, {{"step", "kernel_cases"}, {"error", "cannot read " + request.kernel_cases_path}});
    return nullptr;
  }
  return dump;
}

// Each case on TensorFlow's CPU device, as step `step` with its result under `key`; then the
// registry's CPU kernels of each op, as step `kernels_step`.
void RunOnCpu(const TensorFlowCApi& api, TfeContext* context, const json& dump, const char* step,
              const char* key, const char* kernels_step, std::FILE* report) {
  for (const json& kernel_case : dump["cases"]) {
    json result = {{"id", kernel_case.value("id", "")},
                   {"shape_index", kernel_case.value("shape_index", 0)},
                   {"op", kernel_case.value("op", "")},
                   {"device_type", "CPU"}};
    try {
      result[key] = RunKernelCase(api, context, kernel_case, kCpuDevice);
      // The baseline, TensorFlow's own CPU kernels, also runs a half or bfloat16 sum in float64.
      if (std::string_view(key) == "cpu") {
        if (auto wide = RunFloat64Run(api, context, kernel_case, result[key]))
          result["float64"] = std::move(*wide);
      }
    } catch (const std::exception& error) {
      result["unsupported"] = error.what();
    }
    Emit(report, {{"step", step}, {"result", result}});
  }
  json kernels = json::object();
  for (const std::string& op : OpsOf(dump)) kernels[op] = CpuKernelsOf(api, op);
  Emit(report, {{"step", kernels_step}, {"kernels", kernels}});
}

}  // namespace

json CpuKernelsOf(const TensorFlowCApi& api, const std::string& op) {
  TfStatus* status = api.new_status();
  TfBuffer* buffer = api.registered_kernels_for_op(op.c_str(), status);
  json kernels = json::array();
  if (api.get_code(status) == 0 && buffer != nullptr) {
    WireReader list(std::string_view(static_cast<const char*>(buffer->data), buffer->length));
    for (int field = 0, wire = 0; list.Next(field, wire);) {
      if (field != 1 || wire != 2) {
        list.Skip(wire);
        continue;
      }
      if (json kernel = CpuKernel(list.Bytes()); !kernel.is_null()) {
        kernels.push_back(std::move(kernel));
      }
    }
  }
  if (buffer != nullptr) api.delete_buffer(buffer);
  api.delete_status(status);
  return kernels;
}

void RunCasesWithCpuKernelPlugin(const TensorFlowCApi& api, TfeContext* context,
                                 const PluginRequest& request, std::FILE* report) {
  const json dump = ReadCases(request, report);
  if (!dump.is_null()) RunOnCpu(api, context, dump, "kernel_case", "plugin", "cpu_kernels", report);
}

void RunCpuBaselineSession(const TensorFlowCApi& api, const PluginRequest& request,
                           std::FILE* report) {
  const json dump = ReadCases(request, report);
  if (dump.is_null()) return;
  TfStatus* status = api.new_status();
  TfeContextOptions* options = api.new_context_options();
  api.context_options_set_device_placement_policy(options, kDevicePlacementSilent);
  TfeContext* context = api.new_context(options, status);
  api.delete_context_options(options);
  if (api.get_code(status) == 0) {
    RunOnCpu(api, context, dump, "baseline_case", "cpu", "baseline_cpu_kernels", report);
    api.delete_context(context);
  } else {
    Emit(report, {{"step", "baseline_context"}, {"error", api.message(status)}});
  }
  api.delete_status(status);
}

void MergeCpuBaseline(json& result, const std::string& baseline_report,
                      const std::string& baseline_failure) {
  std::map<std::string, json> baseline_cases;
  json baseline_kernels = json::object();
  std::istringstream lines(baseline_report);
  for (std::string line; std::getline(lines, line);) {
    const json step = json::parse(line, nullptr, false);
    if (step.is_discarded()) continue;
    if (step.value("step", "") == "baseline_case") {
      const json& entry = step["result"];
      const std::string key =
          entry.value("id", "") + "#" + std::to_string(entry.value("shape_index", 0));
      if (entry.contains("cpu")) baseline_cases[key] = entry;
    } else if (step.value("step", "") == "baseline_cpu_kernels") {
      baseline_kernels = step["kernels"];
    }
  }
  // The plugin's kernels: those of the plugin's process the baseline's registry lacks.
  json added = json::object();
  const json with_plugin = result.value("cpu_kernels", json::object());
  for (const auto& [op, kernels] : with_plugin.items()) {
    std::multiset<std::string> own;
    for (const json& kernel : baseline_kernels.value(op, json::array())) {
      own.insert(kernel.value("key", ""));
    }
    json& of_op = added[op];
    of_op = json::array();
    for (const json& kernel : kernels) {
      if (const auto found = own.find(kernel.value("key", "")); found != own.end()) {
        own.erase(found);
        continue;
      }
      json described = kernel;
      described.erase("key");
      of_op.push_back(std::move(described));
    }
  }
  // Each case carries the plugin's kernels of its op: the judge (harness/kernels) decides by
  // their type constraints whether the plugin's kernel or TensorFlow's own one ran.
  for (json& entry : result["kernel_cases"]) {
    const std::string key =
        entry.value("id", "") + "#" + std::to_string(entry.value("shape_index", 0));
    if (const auto found = baseline_cases.find(key); found != baseline_cases.end()) {
      entry["cpu"] = found->second["cpu"];
      if (found->second.contains("float64")) entry["float64"] = found->second["float64"];
    }
    entry["plugin_cpu_kernels"] = added.value(entry.value("op", ""), json::array());
  }
  json without_plugin = json::object();
  for (const auto& [op, kernels] : baseline_kernels.items()) without_plugin[op] = kernels.size();
  result["cpu_kernel_plugin"] = {{"ops", added}, {"cpu_kernels_without_plugin", without_plugin}};
  if (!baseline_failure.empty()) result["cpu_kernel_plugin"]["baseline"] = baseline_failure;
  result.erase("cpu_kernels");
}

bool RanAsCpuKernelPlugin(const json& result) { return result.contains("cpu_kernels"); }

}  // namespace tensorflow_driver
