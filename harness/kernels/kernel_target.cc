#include "kernels/kernel_target.h"

#include <dlfcn.h>

#include <algorithm>
#include <variant>

#include "isolate/in_flight.h"
#include "kernels/host_stream_executor.h"
#include "loader/plugin_library.h"

namespace conformance::kernels {
namespace {

using InitKernelFn = void (*)();

runtime::Error LoadError(std::string message) {
  return runtime::Error{runtime::ErrorKind::kLoad, "TF_InitKernel", TF_INTERNAL,
                        std::move(message)};
}

bool ConstraintsHold(const core::KernelRegistration& kernel, const core::AttrMap& attrs) {
  for (const auto& [attr, type] : kernel.type_constraints) {
    auto found = attrs.find(attr);
    if (found == attrs.end()) return false;
    // A constraint on a type list (IdentityN's T) holds where every element is of its dtype,
    // as TensorFlow matches a list attr against a KernelDef's allowed values.
    if (const auto* list = std::get_if<core::AttrList>(&found->second); list != nullptr) {
      if (std::any_of(list->type.begin(), list->type.end(), [wanted = type](TF_DataType element) {
            return static_cast<int>(element) != wanted;
          }))
        return false;
      continue;
    }
    const auto* dtype = std::get_if<TF_DataType>(&found->second);
    if (dtype == nullptr || static_cast<int>(*dtype) != type) return false;
  }
  return true;
}

}  // namespace

runtime::CallResult<std::unique_ptr<KernelTarget>> KernelTarget::Open(
    const std::string& plugin_path, runtime::SessionOptions options) {
  // A CPU kernel plugin (no SE_InitPlugin) runs on the host device, as on TensorFlow's CPU.
  bool host = false;
  {
    auto library = loader::PluginLibrary::Open(plugin_path);  // never closed, as TensorFlow
    if (!library.ok()) return LoadError("dlopen: " + library.error().Describe());
    const auto entry_points = library.value().FindEntryPoints();
    host = !entry_points.se_init_plugin && !entry_points.tfnpd_init_plugin &&
           entry_points.tf_init_kernel.has_value();
  }
  auto session = host ? runtime::DeviceSession::Open(InitHostPlatform, std::move(options))
                      : runtime::DeviceSession::Open(plugin_path, std::move(options));
  if (!session.ok()) return session.error();
  std::unique_ptr<KernelTarget> target(new KernelTarget());
  target->host_ = host;
  target->session_ = std::move(session.value());
  const char* type = target->session_->platform().type;
  target->device_type_ = type != nullptr ? type : "";

  // The session opened the library already; RTLD_NOLOAD hands back the same handle.
  void* handle = dlopen(plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (handle == nullptr) return LoadError(std::string("dlopen: ") + dlerror());
  auto init = reinterpret_cast<InitKernelFn>(dlsym(handle, "TF_InitKernel"));
  target->exports_init_kernel_ = init != nullptr;
  if (init != nullptr) {
    core::Recorder& recorder = core::Recorder::Instance();
    recorder.SetCurrentPlugin(plugin_path);
    {
      in_flight::PluginCall call("TF_InitKernel");
      init();
    }
    for (auto& kernel : recorder.Kernels()) {
      if (kernel.plugin == plugin_path) target->kernels_.push_back(std::move(kernel));
    }
  }

  auto device = target->session_->GetDevice(0);
  if (!device.ok()) return device.error();
  target->device_ = device.value();
  auto stream = target->device_->CreateStream();
  if (!stream.ok()) return stream.error();
  target->stream_ = std::move(stream.value());
  // TensorFlow's names for the device's allocator, as its OOM messages give them: "cpu" for
  // its CPU device, the BFC allocator of the first PluggableDevice, or the allocator that hands
  // every request on.
  const bool bfc = target->session_->platform().use_bfc_allocator != 0;
  const std::string name = host ? "cpu" : bfc ? "PluggableDevice_0_bfc" : "Simple allocator";
  target->allocator_ = std::make_shared<PluginDeviceAllocator>(*target->device_, name, bfc);
  target->allocator_->LimitTo(KernelMemoryLimit(target->DeviceMemoryBytes()));
  return target;
}

// The stream first (it waits for its work), then the session tears the device down.
KernelTarget::~KernelTarget() { stream_.Reset(); }

const core::KernelRegistration* KernelTarget::FindKernel(const std::string& op,
                                                         const core::AttrMap& attrs) const {
  const core::KernelRegistration* best = nullptr;
  for (const auto& kernel : kernels_) {
    if (kernel.op_name != op || kernel.device_type != device_type_ || !kernel.label.empty())
      continue;
    if (!ConstraintsHold(kernel, attrs)) continue;
    if (best == nullptr || kernel.priority > best->priority) best = &kernel;
  }
  return best;
}

bool KernelTarget::RegistersOp(const std::string& op) const {
  for (const auto& kernel : kernels_) {
    if (kernel.op_name == op && kernel.device_type == device_type_) return true;
  }
  return false;
}

std::string KernelTarget::OnlyLabelOf(const std::string& op) const {
  std::string label;
  for (const auto& kernel : kernels_) {
    if (kernel.op_name != op || kernel.device_type != device_type_) continue;
    if (kernel.label.empty()) return "";
    label = kernel.label;
  }
  return label;
}

core::DeviceDescriptor KernelTarget::Descriptor() const {
  if (host_) {
    // TensorFlow's CPU device: no stream for TF_GetStream, all memory host memory.
    core::DeviceDescriptor cpu = core::DeviceDescriptor::Cpu();
    cpu.device_allocator = allocator_;
    cpu.host_allocator = allocator_;
    return cpu;
  }
  return core::DeviceDescriptor::Pluggable(device_type_, stream_.get(), 0, allocator_);
}

std::int64_t KernelTarget::DeviceMemoryBytes() {
  auto reading = device_->MemoryUsage();
  if (!reading.ok() || !reading.value().returned_true || !reading.value().total_written) return 0;
  return std::max<std::int64_t>(reading.value().total, 0);
}

}  // namespace conformance::kernels
