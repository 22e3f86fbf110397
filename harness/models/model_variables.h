#pragma once
// A model's resource variables on the plugin's device, for the life of one model run: what
// TensorFlow's VarHandleOp + AssignVariableOp do before a training loop's first step, its
// ReadVariableOp does inside each step, and DestroyResourceOp does at the end. The variables
// live in the mock core's VariableStore, where TF_GetInputTensorFromVariable and the variable
// locks find them when a kernel such as ResourceApplyGradientDescent updates one.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_target.h"
#include "models/model_scenario.h"

namespace conformance::models {

// The initial values of `model`'s variables in `dtype`, in declaration order: seeded from the
// run's seed and the check id (apart from the inputs' seeds), so both plugins start alike.
std::vector<kernels::HostTensor> InitialVariableValues(const ModelScenario& model,
                                                       TF_DataType dtype, std::uint64_t seed);

class ModelVariables {
 public:
  ModelVariables() = default;
  ModelVariables(const ModelVariables&) = delete;
  ModelVariables& operator=(const ModelVariables&) = delete;
  ~ModelVariables() { DestroyAll(); }

  // Allocates every variable on the device (through `device`'s allocator), copies its initial
  // value there, waits for the copies and registers it in the store. Empty on success, else
  // what went wrong.
  std::string Create(kernels::KernelTarget& target, const core::DeviceDescriptor& device,
                     const ModelScenario& model, TF_DataType dtype, std::uint64_t seed);
  // The DT_RESOURCE handle of variable `name` (an empty tensor when there is none).
  core::Tensor Handle(const std::string& name) const;
  // The variable's current value, sharing its buffer (ReadVariableOp): while the caller holds
  // it, an update copies first.
  core::Tensor Value(const std::string& name) const;
  // Forgets every variable; their buffers go once nobody else holds them.
  void DestroyAll();

 private:
  std::map<std::string, core::Tensor> handles_;
};

}  // namespace conformance::models
