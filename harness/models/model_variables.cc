#include "models/model_variables.h"

#include "core/variables.h"

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
  std::vector<std::pair<std::string, core::Tensor>> created;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string& name = model.variables[i].name;
    core::Status status;
    core::Tensor tensor = core::Tensor::Allocate(values[i].dtype, values[i].shape, &status,
                                                 device.AllocatorFor(false), device.name);
    if (!status.ok()) return "allocating variable " + name + ": " + status.message;
    if (!values[i].bytes.empty()) {
      const auto copied =
          target.stream().MemcpyHtoD(runtime::DeviceRange(tensor.data(), values[i].bytes.size(), 0),
                                     values[i].bytes.data(), values[i].bytes.size());
      if (!copied.ok()) return "memcpy_htod of variable " + name + ": " + copied.Describe();
    }
    created.emplace_back(name, std::move(tensor));
  }
  // The host values go out of scope here: the copies must have landed.
  if (const auto synced = target.stream().BlockHostUntilDone(); !synced.ok())
    return "block_host_until_done after the variables' copies: " + synced.Describe();
  for (auto& [name, tensor] : created)
    handles_[name] = core::VariableStore::Default().Create(std::move(tensor));
  return "";
}

core::Tensor ModelVariables::Handle(const std::string& name) const {
  auto it = handles_.find(name);
  return it == handles_.end() ? core::Tensor() : it->second;
}

core::Tensor ModelVariables::Value(const std::string& name) const {
  core::Tensor value;
  auto it = handles_.find(name);
  if (it != handles_.end()) (void)core::VariableStore::Default().Read(it->second, &value);
  return value;
}

void ModelVariables::DestroyAll() {
  for (const auto& [name, handle] : handles_) core::VariableStore::Default().Destroy(handle);
  handles_.clear();
}

}  // namespace conformance::models
