#include "kernel_test_support.h"

#include <memory>
#include <optional>
#include <variant>

#include "core/device.h"
#include "core/kernel_context.h"
#include "core/kernel_instance.h"
#include "core/node.h"

namespace reference_plugin_test {
namespace core = conformance::core;
namespace {

constexpr char kDeviceType[] = "REFDEV";
constexpr char kPluginLabel[] = "reference_plugin (kernel tests)";

// The mock core's device allocator backed by the plugin's allocate/deallocate.
class PluginDeviceAllocator : public core::MemoryAllocator {
 public:
  explicit PluginDeviceAllocator(const TestDevice& device) : device_(device) {}
  std::string Name() const override { return "reference_plugin"; }
  void* Allocate(std::size_t bytes) override {
    SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
    device_.se().allocate(device_.get(), bytes, /*memory_space=*/0, &memory);
    return memory.opaque;
  }
  void Deallocate(void* ptr, std::size_t bytes) override {
    SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, ptr, bytes, 0};
    device_.se().deallocate(device_.get(), &memory);
  }

 private:
  const TestDevice& device_;
};

SP_DeviceMemoryBase device_memory(const Tensor& t) {
  return SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, t.data(), t.ByteSize(), 0};
}

bool constraints_match(const core::KernelRegistration& kernel, const AttrMap& attrs) {
  for (const auto& [attr, dtype] : kernel.type_constraints) {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return false;
    const auto* value = std::get_if<TF_DataType>(&it->second);
    if (value == nullptr || static_cast<int>(*value) != dtype) return false;
  }
  return true;
}

const core::KernelRegistration* find_kernel(const KernelCall& call) {
  for (const auto& kernel : reference_kernels()) {
    if (kernel.op_name == call.op && kernel.device_type == kDeviceType &&
        constraints_match(kernel, call.attrs)) {
      return &kernel;
    }
  }
  return nullptr;
}

bool is_host_memory(const core::KernelRegistration& kernel, const std::string& arg) {
  for (const auto& name : kernel.host_memory_args) {
    if (name == arg) return true;
  }
  return false;
}

}  // namespace

const std::vector<core::KernelRegistration>& reference_kernels() {
  static const std::vector<core::KernelRegistration> kernels = [] {
    using InitKernelFn = void (*)();
    auto init = reinterpret_cast<InitKernelFn>(plugin_symbol("TF_InitKernel"));
    std::vector<core::KernelRegistration> ours;
    if (init == nullptr) return ours;
    core::Recorder& recorder = core::Recorder::Instance();
    const std::string previous = recorder.CurrentPlugin();
    recorder.SetCurrentPlugin(kPluginLabel);
    init();
    recorder.SetCurrentPlugin(previous);
    for (auto& kernel : recorder.Kernels()) {
      if (kernel.plugin == kPluginLabel) ours.push_back(std::move(kernel));
    }
    return ours;
  }();
  return kernels;
}

KernelRunner::KernelRunner(const TestDevice& device) : device_(device), stream_(device) {}

KernelRun KernelRunner::run(const KernelCall& call, const RunHooks& hooks) {
  KernelRun result;
  const core::KernelRegistration* kernel =
      call.registration != nullptr ? call.registration : find_kernel(call);
  if (kernel == nullptr) return result;
  result.found = true;
  const core::LiveHandles live_before = core::Recorder::Instance().Live();

  auto allocator = std::make_shared<PluginDeviceAllocator>(device_);
  const auto device = core::DeviceDescriptor::Pluggable(kDeviceType, stream_.get(), 0, allocator);
  {
    core::KernelConstruction construction(
        core::NodeDef{.name = "node", .op = call.op, .attrs = call.attrs}, device);
    core::KernelInstance instance(*kernel, construction);
    result.construction = construction.status();
    if (result.construction.ok()) {
      core::KernelContext context(device);
      if (hooks.before_inputs) hooks.before_inputs(stream_.get());
      for (const KernelInput& input : call.inputs) {
        const int index = static_cast<int>(context.num_inputs());
        context.SetInputRange(input.name, index, index + 1);
        if (is_host_memory(*kernel, input.name) || input.value.dtype() == TF_RESOURCE) {
          context.AddInput(input.value, core::InputOptions{.host_memory = true});
          continue;
        }
        core::Status status;
        Tensor on_device = Tensor::Allocate(input.value.dtype(), input.value.shape(), &status,
                                            allocator, device.name);
        EXPECT_TRUE(status.ok()) << status.message;
        if (on_device.ByteSize() > 0) {
          // Asynchronous, on the kernel's stream: how TensorFlow delivers inputs.
          SP_DeviceMemoryBase destination = device_memory(on_device);
          TfStatus copy_status;
          device_.se().memcpy_htod(device_.get(), stream_.get(), &destination, input.value.data(),
                                   on_device.ByteSize(), copy_status);
          EXPECT_TRUE(copy_status.ok()) << describe(copy_status);
        }
        context.AddInput(std::move(on_device));
      }
      for (TF_DataType dtype : call.outputs) context.AddOutput(dtype);

      instance.Compute(context);
      result.compute = context.status();
      if (hooks.after_compute) hooks.after_compute();
      result.stream_code = stream_.wait();

      for (int i = 0; i < context.num_outputs(); ++i) {
        const std::optional<Tensor>& out = context.output(i);
        result.output_set.push_back(out.has_value());
        if (!out.has_value()) {
          result.outputs.emplace_back();
          continue;
        }
        core::Status status;
        Tensor host = Tensor::Allocate(out->dtype(), out->shape(), &status);
        if (host.ByteSize() > 0) {
          const SP_DeviceMemoryBase source = device_memory(*out);
          TfStatus copy_status;
          device_.se().sync_memcpy_dtoh(device_.get(), host.data(), &source, host.ByteSize(),
                                        copy_status);
          EXPECT_TRUE(copy_status.ok()) << describe(copy_status);
        }
        result.outputs.push_back(std::move(host));
      }
    }
  }
  const core::LiveHandles live_after = core::Recorder::Instance().Live();
  result.leaked_tensors = live_after.tensors - live_before.tensors;
  result.leaked_statuses = live_after.statuses - live_before.statuses;
  return result;
}

Tensor KernelRunner::to_device(const Tensor& host) const {
  auto allocator = std::make_shared<PluginDeviceAllocator>(device_);
  core::Status status;
  Tensor on_device = Tensor::Allocate(host.dtype(), host.shape(), &status, allocator, kDeviceType);
  EXPECT_TRUE(status.ok()) << status.message;
  if (on_device.ByteSize() > 0) {
    SP_DeviceMemoryBase destination = device_memory(on_device);
    TfStatus copy_status;
    device_.se().sync_memcpy_htod(device_.get(), &destination, host.data(), on_device.ByteSize(),
                                  copy_status);
    EXPECT_TRUE(copy_status.ok()) << describe(copy_status);
  }
  return on_device;
}

Tensor KernelRunner::to_host(const Tensor& on_device) const {
  core::Status status;
  Tensor host = Tensor::Allocate(on_device.dtype(), on_device.shape(), &status);
  if (host.ByteSize() > 0) {
    const SP_DeviceMemoryBase source = device_memory(on_device);
    TfStatus copy_status;
    device_.se().sync_memcpy_dtoh(device_.get(), host.data(), &source, host.ByteSize(),
                                  copy_status);
    EXPECT_TRUE(copy_status.ok()) << describe(copy_status);
  }
  return host;
}

void ReferenceKernelTest::SetUp() {
  ReferencePluginTest::SetUp();
  if (HasFatalFailure()) return;
  runner_ = std::make_unique<KernelRunner>(device());
}

void ReferenceKernelTest::TearDown() {
  runner_.reset();
  ReferencePluginTest::TearDown();
}

KernelRun ReferenceKernelTest::run(const KernelCall& call, const RunHooks& hooks) {
  KernelRun result = runner_->run(call, hooks);
  EXPECT_TRUE(result.found) << "no REFDEV kernel registered for " << call.op;
  EXPECT_EQ(result.leaked_tensors, 0) << call.op << " kept TF_Tensor handles";
  EXPECT_EQ(result.leaked_statuses, 0) << call.op << " kept TF_Status handles";
  return result;
}

Tensor floats(Shape shape, const std::vector<float>& values) {
  return Tensor::FromVector<float>(TF_FLOAT, std::move(shape), values);
}
Tensor doubles(Shape shape, const std::vector<double>& values) {
  return Tensor::FromVector<double>(TF_DOUBLE, std::move(shape), values);
}
Tensor int32s(Shape shape, const std::vector<int32_t>& values) {
  return Tensor::FromVector<int32_t>(TF_INT32, std::move(shape), values);
}
Tensor int64s(Shape shape, const std::vector<int64_t>& values) {
  return Tensor::FromVector<int64_t>(TF_INT64, std::move(shape), values);
}
Tensor bools(Shape shape, const std::vector<bool>& values) {
  std::vector<uint8_t> bytes(values.begin(), values.end());
  return Tensor::FromVector<uint8_t>(TF_BOOL, std::move(shape), bytes);
}
Tensor bits16(TF_DataType dtype, Shape shape, const std::vector<uint16_t>& bits) {
  return Tensor::FromVector<uint16_t>(dtype, std::move(shape), bits);
}

}  // namespace reference_plugin_test
