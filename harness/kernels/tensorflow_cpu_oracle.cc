#include "kernels/tensorflow_cpu_oracle.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"
#include "kernels/in_tensorflow_id.h"
#include "run/root_causes.h"
#include "scenario/status_codes.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

std::vector<std::uint8_t> FromHex(const std::string& hex) {
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return bytes;
}

HostTensor TensorOf(const json& output) {
  HostTensor tensor;
  tensor.dtype = static_cast<TF_DataType>(output.at("dtype").get<int>());
  tensor.shape = output.at("shape").get<core::Shape>();
  tensor.bytes = FromHex(output.at("hex").get<std::string>());
  return tensor;
}

std::string StatusText(const json& error) {
  return scenario::CodeName(error.value("code", 2)) + ": " + error.value("message", "");
}

// TensorFlow found no kernel of the plugin for this (op, dtype), or placed the op elsewhere:
// the plugin does not claim it, which is not a disagreement.
bool NotOnDevice(const json& on_plugin, const json& on_cpu) {
  if (on_plugin.contains("error")) {
    const std::string message = on_plugin["error"].value("message", "");
    return message.find("No registered") != std::string::npos ||
           message.find("Could not find device for node") != std::string::npos ||
           message.find("Could not satisfy device specification") != std::string::npos ||
           message.find("not supported on device") != std::string::npos;
  }
  return on_cpu.contains("backing_device") &&
         on_plugin.value("backing_device", "") == on_cpu.value("backing_device", "");
}

Tolerance ToleranceOf(const json& kernel_case) {
  const json& tolerance = kernel_case.at("tolerance");
  return {tolerance.value("rtol", 0.0), tolerance.value("atol", 0.0),
          tolerance.value("ulp", std::uint64_t{0})};
}

// Why the plugin's device result is not TensorFlow's CPU result; nullopt when it is.
std::optional<std::string> Disagreement(const json& kernel_case, const json& on_plugin,
                                        const json& on_cpu) {
  const bool plugin_failed = on_plugin.contains("error");
  const bool cpu_failed = on_cpu.contains("error");
  if (plugin_failed || cpu_failed) {
    if (plugin_failed && cpu_failed &&
        on_plugin["error"].value("code", -1) == on_cpu["error"].value("code", -2)) {
      return std::nullopt;
    }
    return "on the plugin's device " +
           (plugin_failed ? StatusText(on_plugin["error"]) : std::string("it computes")) +
           "; on TensorFlow's CPU " +
           (cpu_failed ? StatusText(on_cpu["error"]) : std::string("it computes"));
  }
  const json& plugin_outputs = on_plugin.at("outputs");
  const json& cpu_outputs = on_cpu.at("outputs");
  if (plugin_outputs.size() != cpu_outputs.size()) {
    return std::to_string(plugin_outputs.size()) + " outputs on the plugin's device, " +
           std::to_string(cpu_outputs.size()) + " on TensorFlow's CPU";
  }
  for (std::size_t i = 0; i < cpu_outputs.size(); ++i) {
    const HostTensor expected = TensorOf(cpu_outputs[i]);
    const HostTensor actual = TensorOf(plugin_outputs[i]);
    const std::string output = "output " + std::to_string(i) + ": ";
    if (actual.dtype != expected.dtype) {
      return output + "dtype " + DtypeName(actual.dtype) + ", TensorFlow's CPU gives " +
             DtypeName(expected.dtype);
    }
    if (actual.shape != expected.shape) {
      return output + "shape " + json(actual.shape).dump() + ", TensorFlow's CPU gives " +
             json(expected.shape).dump();
    }
    if (auto mismatch = CompareValues(expected, actual, ToleranceOf(kernel_case))) {
      return output + std::to_string(mismatch->mismatched) +
             " element(s) outside the case's tolerance; worst at " + mismatch->index + ": " +
             ValueString(actual.dtype, mismatch->actual) + ", TensorFlow's CPU gives " +
             ValueString(expected.dtype, mismatch->expected);
    }
  }
  return std::nullopt;
}

// Filed under the kernel tier's own root cause for the same defect (compute_func: wrong values,
// or a status that differs), so a kernel both oracles catch is one root cause, not two.
CheckResult FailureOf(const json& kernel_case, const std::string& message, bool values) {
  const std::string op = kernel_case.value("op", "");
  CheckResult result;
  result.id = InTensorFlowCheckId(kernel_case.value("id", ""));
  result.outcome = Outcome::kFail;
  result.message = "inside the installed TensorFlow, the plugin's " + op + " kernel (" +
                   kernel_case.value("dtype", "") + ", case " + kernel_case.value("scenario", "") +
                   ") disagrees with TensorFlow's own CPU kernel: " + message;
  result.details[kFailingCallKey] = "compute_func";
  result.details[kProblemKey] =
      values ? "wrong values" : "status differs from TensorFlow's CPU kernel";
  result.details["kernel"] = op;
  return result;
}

}  // namespace

CpuOracleJudgement JudgeAgainstTensorFlowCpu(const json& cases, const json& ran) {
  // A case is its id (op, dtype, scenario) and its shape entry.
  const auto key = [](const json& entry) {
    return entry.value("id", "") + "#" + std::to_string(entry.value("shape_index", 0));
  };
  std::map<std::string, const json*> by_id;
  for (const json& kernel_case : cases.at("cases")) by_id[key(kernel_case)] = &kernel_case;
  std::set<std::string> failed_ids;  // one failed result per case id: its first shape's
  CpuOracleJudgement judgement;
  json& summary = judgement.summary;
  summary = {{"cases", 0},
             {"compared", 0},
             {"agree", 0},
             {"not_on_device", 0},
             {"unsupported", 0},
             {"disagreements", json::array()},
             {"cells", json::object()}};
  for (const json& entry : ran) {
    const auto found = by_id.find(key(entry));
    if (found == by_id.end()) continue;
    const json& kernel_case = *found->second;
    summary["cases"] = summary["cases"].get<int>() + 1;
    json& cell = summary["cells"][kernel_case.value("op", "")][kernel_case.value("dtype", "")];
    if (entry.contains("unsupported") || !entry.contains("plugin") || !entry.contains("cpu")) {
      summary["unsupported"] = summary["unsupported"].get<int>() + 1;
      continue;
    }
    if (NotOnDevice(entry["plugin"], entry["cpu"])) {
      summary["not_on_device"] = summary["not_on_device"].get<int>() + 1;
      if (cell.is_null()) cell = "not_on_device";
      continue;
    }
    summary["compared"] = summary["compared"].get<int>() + 1;
    if (auto why = Disagreement(kernel_case, entry["plugin"], entry["cpu"])) {
      cell = "disagrees";
      summary["disagreements"].push_back({{"id", kernel_case.value("id", "")},
                                          {"op", kernel_case.value("op", "")},
                                          {"dtype", kernel_case.value("dtype", "")},
                                          {"scenario", kernel_case.value("scenario", "")},
                                          {"message", *why}});
      if (failed_ids.insert(kernel_case.value("id", "")).second) {
        const bool values = !entry["plugin"].contains("error") && !entry["cpu"].contains("error");
        judgement.failures.push_back(FailureOf(kernel_case, *why, values));
      }
      continue;
    }
    summary["agree"] = summary["agree"].get<int>() + 1;
    if (cell.is_null() || cell == "not_on_device") cell = "agrees";
  }
  return judgement;
}

}  // namespace conformance::kernels
