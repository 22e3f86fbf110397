#include "models/model_scenario.h"

#include <algorithm>

#include "kernels/dtype_values.h"

namespace conformance::models {

kernels::Tolerance ModelScenario::ToleranceFor(TF_DataType dtype) const {
  if (auto it = tolerances.find(dtype); it != tolerances.end()) return it->second;
  // Defaults for a chain of a few ops: each op a few ULP, growing with every op it feeds.
  const auto depth = static_cast<std::uint64_t>(std::max<std::size_t>(nodes.size(), 1));
  switch (dtype) {
    case TF_FLOAT:
    case TF_DOUBLE: return kernels::Tolerance{.ulp = 16 * depth};
    case TF_HALF:
    case TF_BFLOAT16: return kernels::Tolerance{.ulp = 2 * depth};
    default: return kernels::Tolerance{};
  }
}

std::vector<std::string> ModelScenario::Ops() const {
  std::vector<std::string> ops;
  for (const ModelNode& node : nodes) {
    if (std::find(ops.begin(), ops.end(), node.op) == ops.end()) ops.push_back(node.op);
  }
  return ops;
}

const ModelInput* ModelScenario::FindVariable(const std::string& name) const {
  for (const ModelInput& variable : variables) {
    if (variable.name == name) return &variable;
  }
  return nullptr;
}

std::string ModelCheckId(const std::string& model, TF_DataType dtype) {
  return "model." + model + "." + kernels::DtypeName(dtype);
}

}  // namespace conformance::models
