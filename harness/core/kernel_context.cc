#include "core/kernel_context.h"

#include <string>

#include "core/live_handles.h"

namespace conformance::core {

KernelConstruction::KernelConstruction(NodeDef node, DeviceDescriptor device)
    : node_(std::move(node)), device_(std::move(device)) {}

KernelContext::KernelContext(DeviceDescriptor device) : device_(std::move(device)) {}

int KernelContext::AddInput(Tensor tensor, InputOptions options) {
  inputs_.push_back(InputSlot{std::move(tensor), std::move(options)});
  return num_inputs() - 1;
}

int KernelContext::AddOutput(TF_DataType expected_dtype, bool host_memory) {
  outputs_.push_back(OutputSlot{expected_dtype, host_memory, std::nullopt});
  return num_outputs() - 1;
}

Status KernelContext::CallApiHook(const KernelApiCall& call) const {
  if (!api_hook_) return Status();
  Status status = api_hook_(call);
  RecordCallError(std::string(call.function).c_str(), info_.kernel_name, status);
  return status;
}

Tensor KernelContext::Allocate(TF_DataType dtype, Shape shape, bool on_host, Status* status) {
  // TensorFlow keeps string tensors in host memory whatever the device (its memory types):
  // a kernel writes their elements with the CPU.
  on_host = on_host || dtype == TF_STRING;
  return Tensor::Allocate(dtype, std::move(shape), status, device_.AllocatorFor(on_host),
                          device_.name);
}

void AsyncDone::Run() {
  std::function<void()> on_done;
  {
    std::lock_guard lock(mu_);
    ++calls_;
    on_done = on_done_;
  }
  if (on_done) on_done();
}

int AsyncDone::calls() const {
  std::lock_guard lock(mu_);
  return calls_;
}

}  // namespace conformance::core
