// model_dump [--seed N] [--reference PLUGIN] [OUT]: every built-in model as data (nodes with
// their explicit attrs, inputs, initial variable values, every step's inputs) with the
// reference plugin's outputs for each step, as one JSON document.
// tests/tensorflow_oracle/model_oracle.py runs the same models on TensorFlow's CPU kernels
// (its own ResourceApplyGradientDescent on its own variables included) and compares: the
// reference plugin, which every candidate's models are compared with, is held to TensorFlow.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_target.h"
#include "kernels/reference_oracle.h"
#include "models/model_runner.h"
#include "models/model_scenario_set.h"
#include "models/model_variables.h"
#include "ops/catalogue.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: model_dump [--seed N] [--reference PLUGIN] [OUT]\n"
    "Runs every built-in model on the reference plugin and writes the models with the\n"
    "reference's outputs per step as JSON to OUT (default: standard output).\n";

json NodesJson(const models::ModelScenario& model) {
  json nodes = json::array();
  for (const models::ModelNode& node : model.nodes) {
    const ops::OpDef* def = ops::FindOp(node.op);
    json attrs = json::object();
    for (const auto& [name, value] : node.attrs) attrs[name] = kernels::AttrJson(value);
    json resource = json::array();
    for (std::size_t i = 0; i < node.inputs.size(); ++i)
      resource.push_back(def != nullptr && i < def->inputs.size() &&
                         def->inputs[i].type == TF_RESOURCE);
    nodes.push_back({{"name", node.name},
                     {"op", node.op},
                     {"inputs", node.inputs},
                     {"outputs", node.outputs},
                     {"attrs", attrs},
                     {"resource", resource}});
  }
  return nodes;
}

json TensorsJson(const std::vector<kernels::HostTensor>& tensors) {
  json list = json::array();
  for (const auto& tensor : tensors) list.push_back(kernels::TensorJson(tensor));
  return list;
}

json ModelJson(kernels::KernelTarget& target, const models::ModelScenario& model, TF_DataType dtype,
               std::uint64_t seed) {
  const kernels::Tolerance tolerance = model.ToleranceFor(dtype);
  json entry = {
      {"model", model.name},
      {"dtype", kernels::DtypeName(dtype)},
      {"tolerance", {{"rtol", tolerance.rtol}, {"atol", tolerance.atol}, {"ulp", tolerance.ulp}}},
      {"nodes", NodesJson(model)},
      {"outputs", model.outputs}};
  json inputs = json::array();
  for (const auto& input : model.inputs) inputs.push_back(input.name);
  entry["inputs"] = inputs;
  json variables = json::array();
  const auto initial = models::InitialVariableValues(model, dtype, seed);
  for (std::size_t i = 0; i < initial.size(); ++i)
    variables.push_back(
        {{"name", model.variables[i].name}, {"value", kernels::TensorJson(initial[i])}});
  entry["variables"] = variables;
  const std::vector<std::string> missing = models::MissingOps(target, model, dtype);
  if (!missing.empty()) {
    entry["unavailable"] = "the reference plugin has no " + missing.front() + " kernel";
    return entry;
  }
  const models::ModelOutcome outcome = models::RunModel(
      target, model, dtype, seed, {.kind = models::ModelRunMode::Kind::kSequential});
  if (!outcome.ran()) {
    entry["unavailable"] =
        "the reference plugin could not run the model: " +
        (outcome.harness_error.empty() ? outcome.failure->message : outcome.harness_error);
    return entry;
  }
  json steps = json::array();
  for (std::size_t s = 0; s < outcome.steps.size(); ++s) {
    steps.push_back(
        {{"inputs", TensorsJson(models::StepInputs(model, dtype, static_cast<int>(s), seed))},
         {"outputs", TensorsJson(outcome.steps[s].outputs)}});
  }
  entry["steps"] = steps;
  return entry;
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
  std::vector<models::ModelScenario> scenarios;
  try {
    scenarios = models::LoadAllModelScenarios({});
  } catch (const std::exception& error) {
    std::cerr << "model_dump: " << error.what() << '\n';
    return 1;
  }
  auto target = kernels::KernelTarget::Open(reference);
  if (!target.ok()) {
    std::cerr << "model_dump: cannot open the reference plugin " << reference << ": "
              << target.error().Describe() << '\n';
    return 1;
  }
  json models = json::array();
  for (const auto& model : scenarios) {
    for (TF_DataType dtype : model.dtypes)
      models.push_back(ModelJson(*target.value(), model, dtype, seed));
  }
  const json document = {{"seed", std::to_string(seed)}, {"models", models}};
  if (out_path.empty()) {
    std::cout << document.dump() << '\n';
    return 0;
  }
  std::ofstream out(out_path);
  out << document.dump() << '\n';
  return out ? 0 : 1;
}
