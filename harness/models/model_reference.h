#pragma once
// The reference plugin's results for a unit's models, computed in a sibling process
// (kernels/sibling_process.h) before the candidate is loaded, as the kernel tier's are: every
// step's model outputs and every node's outputs, from the sequential mode (every node
// synchronised), so a candidate's disagreement can be traced to the first node that differs.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/model_runner.h"

namespace conformance::models {

struct ReferenceModel {
  std::string unavailable;  // why there is nothing to compare with (empty: `steps` holds it)
  // The node whose kernel the reference plugin itself failed: a candidate failing there too
  // runs a model that no plugin can run, the model's mistake, not the candidate's.
  std::optional<std::size_t> failed_node;
  std::vector<StepOutputs> steps;
};

struct ReferenceModels {
  std::string failure;                                           // the whole sibling failed
  std::map<std::pair<std::string, int>, ReferenceModel> models;  // (model name, dtype)
  const ReferenceModel* Find(const std::string& model, TF_DataType dtype) const;
};

ReferenceModels RunModelsOnReference(const std::string& reference_path,
                                     const std::vector<const ModelScenario*>& models,
                                     std::uint64_t seed);

}  // namespace conformance::models
