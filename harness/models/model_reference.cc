#include "models/model_reference.h"

#include <nlohmann/json.hpp>

#include "kernels/dtype_values.h"
#include "kernels/kernel_target.h"
#include "kernels/sibling_process.h"

namespace conformance::models {
namespace {

using kernels::HostTensor;
using nlohmann::json;

json TensorsToJson(const std::vector<HostTensor>& tensors) {
  json list = json::array();
  for (const HostTensor& t : tensors) {
    list.push_back({{"dtype", static_cast<int>(t.dtype)},
                    {"shape", t.shape},
                    {"bytes", json::binary(t.bytes)}});
  }
  return list;
}

std::vector<HostTensor> TensorsFromJson(const json& list) {
  std::vector<HostTensor> tensors;
  for (const json& item : list) {
    HostTensor t;
    t.dtype = static_cast<TF_DataType>(item.at("dtype").get<int>());
    t.shape = item.at("shape").get<core::Shape>();
    t.bytes = item.at("bytes").get_binary();
    tensors.push_back(std::move(t));
  }
  return tensors;
}

std::string Describe(const ModelOutcome& outcome, const ModelScenario& model) {
  if (!outcome.harness_error.empty()) return outcome.harness_error;
  const NodeFailure& failure = *outcome.failure;
  return "node " + model.nodes[failure.node].name + " (" + model.nodes[failure.node].op +
         "): " + failure.message;
}

json ComputeAll(const std::string& reference_path, const std::vector<const ModelScenario*>& models,
                std::uint64_t seed) {
  auto target = kernels::KernelTarget::Open(reference_path);
  if (!target.ok())
    return {{"failure", "cannot open the reference plugin: " + target.error().Describe()}};
  json results = json::array();
  for (const ModelScenario* model : models) {
    for (TF_DataType dtype : model->dtypes) {
      json entry = {{"model", model->name}, {"dtype", static_cast<int>(dtype)}};
      const std::vector<std::string> missing = MissingOps(*target.value(), *model, dtype);
      if (!missing.empty()) {
        entry["unavailable"] = "the reference plugin has no " + missing.front() + " kernel for " +
                               kernels::DtypeName(dtype);
        results.push_back(std::move(entry));
        continue;
      }
      const ModelOutcome outcome =
          RunModel(*target.value(), *model, dtype, seed, {.kind = ModelRunMode::Kind::kSequential});
      if (!outcome.ran()) {
        entry["unavailable"] =
            "the reference plugin could not run the model: " + Describe(outcome, *model);
        if (outcome.failure) entry["failed_node"] = outcome.failure->node;
        results.push_back(std::move(entry));
        continue;
      }
      json steps = json::array();
      for (const StepOutputs& step : outcome.steps) {
        json nodes = json::array();
        for (const auto& node : step.node_outputs) nodes.push_back(TensorsToJson(node));
        steps.push_back({{"outputs", TensorsToJson(step.outputs)}, {"nodes", std::move(nodes)}});
      }
      entry["steps"] = std::move(steps);
      results.push_back(std::move(entry));
    }
  }
  return {{"models", std::move(results)}};
}

}  // namespace

const ReferenceModel* ReferenceModels::Find(const std::string& model, TF_DataType dtype) const {
  auto found = models.find({model, static_cast<int>(dtype)});
  return found == models.end() ? nullptr : &found->second;
}

ReferenceModels RunModelsOnReference(const std::string& reference_path,
                                     const std::vector<const ModelScenario*>& models,
                                     std::uint64_t seed) {
  ReferenceModels results;
  const kernels::SiblingResult sibling = kernels::RunInSibling(
      [&] { return json::to_cbor(ComputeAll(reference_path, models, seed)); }, reference_path,
      "the reference plugin's model results, computed in a sibling process");
  if (!sibling.failure.empty()) {
    results.failure = sibling.failure;
    return results;
  }
  const json parsed = json::from_cbor(sibling.bytes, true, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    results.failure = "the reference process sent no results";
    return results;
  }
  if (parsed.contains("failure")) {
    results.failure = parsed.at("failure").get<std::string>();
    return results;
  }
  for (const json& entry : parsed.at("models")) {
    ReferenceModel model;
    model.unavailable = entry.value("unavailable", "");
    if (entry.contains("failed_node"))
      model.failed_node = entry.at("failed_node").get<std::size_t>();
    if (entry.contains("steps")) {
      for (const json& step : entry.at("steps")) {
        StepOutputs outputs;
        outputs.outputs = TensorsFromJson(step.at("outputs"));
        for (const json& node : step.at("nodes"))
          outputs.node_outputs.push_back(TensorsFromJson(node));
        model.steps.push_back(std::move(outputs));
      }
    }
    results.models[{entry.at("model").get<std::string>(), entry.at("dtype").get<int>()}] =
        std::move(model);
  }
  return results;
}

}  // namespace conformance::models
