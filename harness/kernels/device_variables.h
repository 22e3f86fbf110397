#pragma once
// Resource variables on the plugin's device for the life of one run (a kernel case, or a whole
// model): what TensorFlow's VarHandleOp + AssignVariableOp do before a kernel reads the
// variable, its ReadVariableOp does to read the value, and DestroyResourceOp does at the end.
// The variables live in the mock core's VariableStore, where TF_GetInputTensorFromVariable and
// the variable locks find them when a kernel such as ResourceApplyGradientDescent updates one.
// The kernel tier (one case's `variable: true` inputs) and the models tier (a model's
// `variables:`) both make theirs here.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_target.h"

namespace conformance::kernels {

// One variable to create: its name and initial value (dtype and shape are the value's).
using VariableInit = std::pair<std::string, const HostTensor*>;

class DeviceVariables {
 public:
  DeviceVariables() = default;
  DeviceVariables(const DeviceVariables&) = delete;
  DeviceVariables& operator=(const DeviceVariables&) = delete;
  ~DeviceVariables() { DestroyAll(); }

  // Allocates every variable on the device (through `device`'s allocator), copies its initial
  // value there, waits for the copies and registers it in the store. Empty on success, else
  // what went wrong.
  std::string Create(KernelTarget& target, const core::DeviceDescriptor& device,
                     const std::vector<VariableInit>& variables);
  // Writes `value` (the variable's dtype and shape) over variable `name`'s current buffer and
  // waits for the copy: a step that must start again from the initial values. Empty on
  // success, else what went wrong.
  std::string Overwrite(KernelTarget& target, const std::string& name, const HostTensor& value);
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

}  // namespace conformance::kernels
