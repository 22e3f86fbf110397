#pragma once
// A plugin opened for running kernels, as TensorFlow opens it: its StreamExecutor brought up
// (runtime layer), TF_InitKernel called with the registrations recorded by the mock core, and
// device 0 with one stream and an allocator over the plugin's allocate. The candidate and the
// reference plugin are each opened this way, in their own processes. A CPU kernel plugin (no
// SE_InitPlugin) is opened on the host device instead (kernels/host_stream_executor.h): its
// kernels see TensorFlow's CPU device.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attributes.h"
#include "core/device.h"
#include "core/recorder.h"
#include "kernels/device_allocator.h"
#include "runtime/runtime.h"

namespace conformance::kernels {

class KernelTarget {
 public:
  // kUnsupported (runtime layer) when the StreamExecutor generation cannot be driven; kLoad
  // when the plugin does not come up.
  static runtime::CallResult<std::unique_ptr<KernelTarget>> Open(
      const std::string& plugin_path, runtime::SessionOptions options = {});
  ~KernelTarget();
  KernelTarget(const KernelTarget&) = delete;
  KernelTarget& operator=(const KernelTarget&) = delete;

  bool exports_init_kernel() const { return exports_init_kernel_; }
  const std::vector<core::KernelRegistration>& kernels() const { return kernels_; }
  const std::string& device_type() const { return device_type_; }
  // The host device of a CPU kernel plugin: no device stream, so the checks of stream
  // ordering do not apply.
  bool on_host() const { return host_; }
  // The plugin sets SP_Platform.use_bfc_allocator: TensorFlow then never calls its deallocate
  // while work is queued (it reuses its own chunks in stream order).
  bool uses_bfc() const { return allocator_->guards(); }

  // The kernel TensorFlow would pick for `op` with these attrs on this plugin's device: type
  // constraints satisfied by the attrs, no label, highest priority. nullptr when none.
  const core::KernelRegistration* FindKernel(const std::string& op,
                                             const core::AttrMap& attrs) const;
  bool RegistersOp(const std::string& op) const;
  // The label of a kernel of `op` registered only under labels (TensorFlow runs those only for
  // nodes whose _kernel attr names the label); empty when some kernel of it has no label.
  std::string OnlyLabelOf(const std::string& op) const;

  runtime::DeviceSession& session() { return *session_; }
  runtime::Device& device() { return *device_; }
  runtime::Stream& stream() { return stream_; }
  const std::shared_ptr<PluginDeviceAllocator>& allocator() const { return allocator_; }
  core::DeviceDescriptor Descriptor() const;
  // The device's whole memory as device_memory_usage reports it; 0 when it reports none.
  std::int64_t DeviceMemoryBytes();

 private:
  KernelTarget() = default;

  std::unique_ptr<runtime::DeviceSession> session_;
  runtime::Device* device_ = nullptr;
  runtime::Stream stream_;
  std::shared_ptr<PluginDeviceAllocator> allocator_;
  std::vector<core::KernelRegistration> kernels_;
  std::string device_type_;
  bool exports_init_kernel_ = false;
  bool host_ = false;
};

}  // namespace conformance::kernels
