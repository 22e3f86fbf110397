#pragma once
// A model's resource variables on the plugin's device, for the life of one model run. The
// device side (allocation, the store, handles, values) is kernels::DeviceVariables, shared with
// the kernel tier's variable inputs; this adds what is the model's own: which variables it
// declares and their seeded initial values.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/device_variables.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_target.h"
#include "models/model_scenario.h"

namespace conformance::models {

// The initial values of `model`'s variables in `dtype`, in declaration order: seeded from the
// run's seed and the check id (apart from the inputs' seeds), so both plugins start alike.
std::vector<kernels::HostTensor> InitialVariableValues(const ModelScenario& model,
                                                       TF_DataType dtype, std::uint64_t seed);

class ModelVariables : public kernels::DeviceVariables {
 public:
  // Creates every variable `model` declares, holding its initial value in `dtype`. Empty on
  // success, else what went wrong.
  std::string Create(kernels::KernelTarget& target, const core::DeviceDescriptor& device,
                     const ModelScenario& model, TF_DataType dtype, std::uint64_t seed);
};

}  // namespace conformance::models
