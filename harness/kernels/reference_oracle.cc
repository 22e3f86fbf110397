#include "kernels/reference_oracle.h"

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "kernels/case_builder.h"
#include "kernels/case_footprint.h"
#include "kernels/kernel_target.h"
#include "kernels/sibling_process.h"

// Relative to the executable's folder: where the install layout puts it
// (cmake/packaging/Install.cmake sets it), then where the build tree has it.
#ifndef REFERENCE_PLUGIN_FROM_EXECUTABLE
#define REFERENCE_PLUGIN_FROM_EXECUTABLE "../lib/libreference_plugin.so"
#endif

namespace conformance::kernels {
namespace {

using nlohmann::json;

json ToJson(const Outputs& outputs) {
  json list = json::array();
  for (const auto& output : outputs) {
    if (!output) {
      list.push_back(nullptr);
      continue;
    }
    list.push_back({{"dtype", static_cast<int>(output->dtype)},
                    {"shape", output->shape},
                    {"bytes", json::binary(output->bytes)}});
  }
  return list;
}

Outputs OutputsFromJson(const json& list) {
  Outputs outputs;
  for (const json& item : list) {
    if (item.is_null()) {
      outputs.emplace_back();
      continue;
    }
    HostTensor t;
    t.dtype = static_cast<TF_DataType>(item.at("dtype").get<int>());
    t.shape = item.at("shape").get<core::Shape>();
    t.bytes = item.at("bytes").get_binary();
    outputs.emplace_back(std::move(t));
  }
  return outputs;
}

json ComputeAll(const std::string& reference_path,
                const std::vector<const KernelScenario*>& scenarios, std::uint64_t seed) {
  auto target = KernelTarget::Open(reference_path);
  if (!target.ok())
    return {{"failure", "cannot open the reference plugin: " + target.error().Describe()}};
  CaseRunner runner(*target.value());
  const std::int64_t device_bytes = target.value()->DeviceMemoryBytes();
  json cases = json::array();
  for (std::size_t s = 0; s < scenarios.size(); ++s) {
    const KernelScenario& scenario = *scenarios[s];
    if (scenario.expect.kind != Expectation::Kind::kReference) continue;
    for (TF_DataType dtype : scenario.dtypes) {
      const core::KernelRegistration* kernel =
          target.value()->FindKernel(scenario.op, CaseAttrs(scenario, dtype));
      for (std::size_t shape = 0; shape < scenario.shapes.size(); ++shape) {
        json entry = {{"scenario", s},
                      {"dtype", static_cast<int>(dtype)},
                      {"shape", shape},
                      {"has_kernel", kernel != nullptr}};
        auto oversized =
            OversizedCase(scenario, dtype, shape, device_bytes, "the reference plugin's device");
        if (kernel != nullptr && oversized) {
          entry["oversized"] = *oversized;
        } else if (kernel != nullptr) {
          CaseOutcome outcome = runner.Run(*kernel, BuildCase(scenario, dtype, shape, seed));
          entry["harness_error"] = outcome.harness_error;
          entry["code"] = static_cast<int>(outcome.code);
          entry["message"] = outcome.message;
          entry["outputs"] = ToJson(outcome.outputs);
        }
        cases.push_back(std::move(entry));
      }
    }
  }
  return {{"cases", std::move(cases)}};
}

}  // namespace

const ReferenceCase* ReferenceResults::Find(std::size_t scenario, TF_DataType dtype,
                                            std::size_t shape) const {
  auto found = cases.find({scenario, static_cast<int>(dtype), shape});
  return found == cases.end() ? nullptr : &found->second;
}

void ReferenceResults::Add(std::size_t scenario, TF_DataType dtype, std::size_t shape,
                           ReferenceCase result) {
  cases[{scenario, static_cast<int>(dtype), shape}] = std::move(result);
}

std::string ReferencePluginPath() {
  if (const char* configured = std::getenv("PLUGIN_CONFORMANCE_REFERENCE_PLUGIN");
      configured && *configured) {
    return configured;
  }
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  for (const char* relative : {REFERENCE_PLUGIN_FROM_EXECUTABLE, "../lib/libreference_plugin.so"}) {
    if (error) break;
    const auto beside = (executable.parent_path() / relative).lexically_normal();
    if (std::filesystem::exists(beside, error)) return beside.string();
  }
  return "";  // none found: the caller says so
}

ReferenceResults RunOnReference(const std::string& reference_path,
                                const std::vector<const KernelScenario*>& scenarios,
                                std::uint64_t seed) {
  ReferenceResults results;
  const SiblingResult sibling =
      RunInSibling([&] { return json::to_cbor(ComputeAll(reference_path, scenarios, seed)); },
                   reference_path, "the reference plugin's results, computed in a sibling process");
  if (!sibling.failure.empty()) {
    results.failure = sibling.failure;
    return results;
  }
  const std::vector<std::uint8_t>& bytes = sibling.bytes;
  const json parsed = json::from_cbor(bytes, true, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    results.failure = "the reference process sent no results";
    return results;
  }
  if (parsed.contains("failure")) {
    results.failure = parsed.at("failure").get<std::string>();
    return results;
  }
  for (const json& entry : parsed.at("cases")) {
    ReferenceCase result;
    result.has_kernel = entry.at("has_kernel").get<bool>();
    result.oversized = entry.value("oversized", "");
    if (result.has_kernel && result.oversized.empty()) {
      result.harness_error = entry.at("harness_error").get<std::string>();
      result.code = static_cast<TF_Code>(entry.at("code").get<int>());
      result.message = entry.at("message").get<std::string>();
      result.outputs = OutputsFromJson(entry.at("outputs"));
    }
    results.Add(entry.at("scenario").get<std::size_t>(),
                static_cast<TF_DataType>(entry.at("dtype").get<int>()),
                entry.at("shape").get<std::size_t>(), std::move(result));
  }
  return results;
}

}  // namespace conformance::kernels
