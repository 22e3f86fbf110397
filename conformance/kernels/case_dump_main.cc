// kernel_case_dump [--seed N] [--reference PLUGIN] [OUT]: every case of the built-in kernel
// scenarios (op, attrs, inputs, tolerance, expectation) and the reference plugin's outcome for
// it, as one JSON document. tests/tensorflow_oracle/kernel_oracle.py runs the same cases on
// TensorFlow's own CPU kernels and compares: TensorFlow is the ground truth the reference plugin
// (the oracle of every candidate) is held to.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "kernels/case_builder.h"
#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/kernel_target.h"
#include "kernels/reference_oracle.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: kernel_case_dump [--seed N] [--reference PLUGIN] [OUT]\n"
    "Runs every case of the built-in kernel scenarios on the reference plugin and writes the\n"
    "cases with the reference's outcome as JSON to OUT (default: standard output).\n";

json ReferenceJson(kernels::KernelTarget& target, const kernels::KernelScenario& scenario,
                   TF_DataType dtype, std::size_t shape, std::uint64_t seed) {
  const core::KernelRegistration* kernel =
      target.FindKernel(scenario.op, kernels::CaseAttrs(scenario, dtype));
  if (kernel == nullptr) return {{"has_kernel", false}};
  kernels::CaseRunner runner(target);
  const kernels::CaseOutcome outcome =
      runner.Run(*kernel, kernels::BuildCase(scenario, dtype, shape, seed));
  json outputs = json::array();
  for (const auto& output : outcome.outputs)
    outputs.push_back(output ? kernels::TensorJson(*output) : json(nullptr));
  return {{"has_kernel", true},
          {"harness_error", outcome.harness_error},
          {"code", static_cast<int>(outcome.code)},
          {"message", outcome.message},
          {"outputs", outputs}};
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 0;
  std::string reference = kernels::ReferencePluginPath();
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--reference" && i + 1 < argc) {
      reference = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (out_path.empty() && !arg.starts_with("-")) {
      out_path = arg;
    } else {
      std::cerr << kUsage;
      return 2;
    }
  }
  std::vector<kernels::KernelScenario> scenarios;
  try {
    scenarios = kernels::BuiltinKernelScenarios();
  } catch (const std::exception& error) {
    std::cerr << "kernel_case_dump: " << error.what() << '\n';
    return 1;
  }
  auto target = kernels::KernelTarget::Open(reference);
  if (!target.ok()) {
    std::cerr << "kernel_case_dump: cannot open the reference plugin " << reference << ": "
              << target.error().Describe() << '\n';
    return 1;
  }
  json cases = json::array();
  for (const auto& scenario : scenarios) {
    for (TF_DataType dtype : scenario.dtypes) {
      for (std::size_t shape = 0; shape < scenario.shapes.size(); ++shape) {
        json entry = kernels::CaseJson(scenario, dtype, shape, seed);
        entry["reference"] = ReferenceJson(*target.value(), scenario, dtype, shape, seed);
        cases.push_back(std::move(entry));
      }
    }
  }
  const std::string text =
      json{{"seed", seed}, {"reference_plugin", reference}, {"cases", cases}}.dump() + "\n";
  if (out_path.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(out_path);
  out << text;
  return out ? 0 : 1;
}
