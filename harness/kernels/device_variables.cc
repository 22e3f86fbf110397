#include "kernels/device_variables.h"

#include "runtime/wait_idle.h"
#include "core/variables.h"

namespace conformance::kernels {

std::string DeviceVariables::Create(KernelTarget& target, const core::DeviceDescriptor& device,
                                    const std::vector<VariableInit>& variables) {
  // No variables, no calls: most kernel cases have none, and a wait here would be a stream call
  // TensorFlow never makes for them.
  if (variables.empty()) return "";
  std::vector<std::pair<std::string, core::Tensor>> created;
  for (const auto& [name, value] : variables) {
    core::Status status;
    core::Tensor tensor = core::Tensor::Allocate(value->dtype, value->shape, &status,
                                                 device.AllocatorFor(false), device.name);
    if (!status.ok()) return "allocating variable " + name + ": " + status.message;
    if (!value->bytes.empty()) {
      const auto copied =
          target.stream().MemcpyHtoD(runtime::DeviceRange(tensor.data(), value->bytes.size(), 0),
                                     value->bytes.data(), value->bytes.size());
      if (!copied.ok()) return "memcpy_htod of variable " + name + ": " + copied.Describe();
    }
    created.emplace_back(name, std::move(tensor));
  }
  // The caller's host values may go once this returns: the copies must have landed.
  // TensorFlow's wait (runtime/wait_idle.h), not block_host_until_done, which it never calls.
  if (const auto synced = runtime::WaitIdle(target.stream()); !synced.ok())
    return "waiting for the stream after the variables' copies: " + synced.Describe();
  for (auto& [name, tensor] : created)
    handles_[name] = core::VariableStore::Default().Create(std::move(tensor));
  return "";
}

std::string DeviceVariables::Overwrite(KernelTarget& target, const std::string& name,
                                       const HostTensor& value) {
  const core::Tensor now = Value(name);
  if (now.data() == nullptr || value.bytes.empty()) return "";
  const auto copied =
      target.stream().MemcpyHtoD(runtime::DeviceRange(now.data(), value.bytes.size(), 0),
                                 value.bytes.data(), value.bytes.size());
  if (!copied.ok()) return "memcpy_htod over variable " + name + ": " + copied.Describe();
  if (const auto synced = runtime::WaitIdle(target.stream()); !synced.ok())
    return "waiting for the stream after overwriting variable " + name + ": " + synced.Describe();
  return "";
}

core::Tensor DeviceVariables::Handle(const std::string& name) const {
  auto it = handles_.find(name);
  return it == handles_.end() ? core::Tensor() : it->second;
}

core::Tensor DeviceVariables::Value(const std::string& name) const {
  core::Tensor value;
  auto it = handles_.find(name);
  if (it != handles_.end()) (void)core::VariableStore::Default().Read(it->second, &value);
  return value;
}

void DeviceVariables::DestroyAll() {
  for (const auto& [name, handle] : handles_) core::VariableStore::Default().Destroy(handle);
  handles_.clear();
}

}  // namespace conformance::kernels
