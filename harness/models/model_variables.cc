#include "models/model_variables.h"

namespace conformance::models {

std::vector<kernels::HostTensor> InitialVariableValues(const ModelScenario& model,
                                                       TF_DataType dtype, std::uint64_t seed) {
  std::vector<kernels::HostTensor> values;
  const std::string id = ModelCheckId(model.name, dtype) + "/variables";
  for (std::size_t i = 0; i < model.variables.size(); ++i) {
    const ModelInput& variable = model.variables[i];
    const std::uint64_t variable_seed =
        kernels::InputSeed(seed, id, 0, i, variable.fill.seed_offset);
    values.push_back(kernels::MakeInput(variable.fill, variable.dtype.value_or(dtype),
                                        variable.shape, variable_seed));
  }
  return values;
}

std::string ModelVariables::Create(kernels::KernelTarget& target,
                                   const core::DeviceDescriptor& device, const ModelScenario& model,
                                   TF_DataType dtype, std::uint64_t seed) {
  const std::vector<kernels::HostTensor> values = InitialVariableValues(model, dtype, seed);
  std::vector<kernels::VariableInit> variables;
  for (std::size_t i = 0; i < values.size(); ++i)
    variables.emplace_back(model.variables[i].name, &values[i]);
  return DeviceVariables::Create(target, device, variables);
}

}  // namespace conformance::models
