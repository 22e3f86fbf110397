#pragma once
// The fake kernel context: runs a plugin author's real kernel (create/compute/delete) in a
// unit test, without TensorFlow, on a device of a StreamExecutor table (the mock device by
// default, or any plugin's), with gmock hooks on the kernel C API calls the kernel makes.
//
//   KernelDevice device("MY_DEVICE");                     // the plugin's device type, on a
//                                                         // MockStreamExecutor device
//   FakeKernelContext add(&TF_InitKernel, "AddV2", device);  // registration from TF_InitKernel
//   add.Attr("T", TF_FLOAT).Input<float>({2}, {1, 2}).Input<float>({}, {10});
//   EXPECT_CALL(add.api(), AllocateOutput(0, ElementsAre(2)));
//   KernelResult result = add.Run();
//   EXPECT_EQ(result.Output<float>(0), (std::vector<float>{11, 12}));
//   EXPECT_EQ(result.leaked_tensors, 0);
//
// Built on the core's KernelConstruction / KernelContext / KernelInstance (harness/core).
#include <gmock/gmock.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes.h"
#include "core/device.h"
#include "core/kernel_context.h"
#include "core/recorder.h"
#include "core/status.h"
#include "core/tensor.h"
#include "mocks/stream_executor_mock.h"

namespace conformance::mocks {

// gmock hooks on the kernel C API. Each is called before the core does the work and returns
// the status the call reports: OK (the default) lets the core proceed, an error makes the
// call fail with it (e.g. Return(Status::Error(TF_RESOURCE_EXHAUSTED, "..."))).
class MockKernelApi {
 public:
  virtual ~MockKernelApi() = default;
  MOCK_METHOD(core::Status, GetInput, (int index));
  MOCK_METHOD(core::Status, AllocateOutput, (int index, const core::Shape& shape));
  MOCK_METHOD(core::Status, ForwardInputOrAllocateOutput,
              (int output_index, const core::Shape& shape));
  MOCK_METHOD(core::Status, AllocateTemp, (TF_DataType dtype, const core::Shape& shape));
  MOCK_METHOD(core::Status, SetOutput, (int index));
  MOCK_METHOD(core::Status, GetStream, ());

  core::Status Dispatch(const core::KernelApiCall& call);
};

// One device of a StreamExecutor table and a stream on it: where a kernel's tensors live.
class KernelDevice {
 public:
  // Device 0 of a MockStreamExecutor owned by this object.
  explicit KernelDevice(std::string device_type = "MOCK_DEVICE");
  // Device `ordinal` of `se` (which must outlive this object).
  KernelDevice(MockStreamExecutor& se, std::string device_type = "MOCK_DEVICE", int ordinal = 0);
  // Any plugin's table and device, e.g. the reference plugin's (both must outlive this).
  KernelDevice(const SP_StreamExecutor& table, const SP_Device& device, std::string device_type);
  ~KernelDevice();
  KernelDevice(const KernelDevice&) = delete;
  KernelDevice& operator=(const KernelDevice&) = delete;

  const std::string& type() const { return type_; }
  SP_Stream stream() const { return stream_; }
  core::DeviceDescriptor Descriptor() const;
  core::Tensor ToDevice(const core::Tensor& host, core::Status* status) const;
  core::Tensor ToHost(const core::Tensor& on_device, core::Status* status) const;
  core::Status Synchronize() const;  // block_host_until_done on the stream

 private:
  void Init();
  std::unique_ptr<::testing::NiceMock<MockStreamExecutor>> owned_;
  SP_StreamExecutor table_{};
  SP_Device device_{};
  std::string type_;
  SP_Stream stream_ = nullptr;
  std::shared_ptr<core::MemoryAllocator> allocator_;
};

// An op's arguments: each type is an attr name ("T") or a dtype name ("float").
struct OpArg {
  std::string name;
  std::string type;
};
struct OpSignature {
  std::vector<OpArg> inputs, outputs;
};
// The signature of `op`: registered through ops.h, or an op of the catalogue (specs/ops).
std::optional<OpSignature> FindOpSignature(std::string_view op);

struct KernelResult {
  bool ran = false;           // false: bad usage or no registration (the test already failed)
  core::Status construction;  // what create_func reported
  core::Status compute;       // what compute_func reported
  core::Status stream;        // the stream after compute (block_host_until_done)
  std::vector<std::optional<core::Tensor>> outputs;  // host copies; nullopt = never set
  int64_t leaked_tensors = 0;   // TF_Tensor handles the kernel got and never deleted
  int64_t leaked_statuses = 0;  // likewise TF_Status

  bool ok() const { return ran && construction.ok() && compute.ok() && stream.ok(); }
  template <typename T>
  std::vector<T> Output(int i) const {
    const auto& out = outputs.at(static_cast<std::size_t>(i));
    return out ? out->ToVector<T>() : std::vector<T>{};
  }
  core::Shape OutputShape(int i) const {
    const auto& out = outputs.at(static_cast<std::size_t>(i));
    return out ? out->shape() : core::Shape{};
  }
};

template <typename T>
constexpr TF_DataType DataTypeOf();

class FakeKernelContext {
 public:
  // The kernel `init_kernel` (a plugin's TF_InitKernel; run once per process) registers for
  // `op` on the device's type, chosen by the attrs' type constraints when Run() is called.
  FakeKernelContext(void (*init_kernel)(), std::string op, KernelDevice& device);
  // A registration the test built (create/compute/delete of its own kernel).
  FakeKernelContext(core::KernelRegistration registration, KernelDevice& device);

  FakeKernelContext& Attr(std::string name, core::AttrValue value);
  FakeKernelContext& Input(core::Tensor host_value);
  template <typename T>
  FakeKernelContext& Input(core::Shape shape, std::vector<T> values) {
    return Input(core::Tensor::FromVector<T>(DataTypeOf<T>(), std::move(shape), values));
  }
  // Output dtypes; without this they come from the op's signature and attrs.
  FakeKernelContext& Output(TF_DataType dtype);
  // Overrides the op's signature (for ops neither registered through ops.h nor in the catalogue).
  FakeKernelContext& Signature(OpSignature signature);
  ::testing::NiceMock<MockKernelApi>& api() { return api_; }

  // Validates the inputs against the op, runs create/compute/delete, syncs the stream and
  // copies the outputs to the host.
  KernelResult Run();

 private:
  std::optional<core::KernelRegistration> FindRegistration();
  void AddAttrDefaults();
  bool Validate(std::vector<TF_DataType>* outputs);

  KernelDevice& device_;
  void (*init_kernel_)() = nullptr;
  std::string op_;
  std::optional<core::KernelRegistration> registration_;
  core::AttrMap attrs_;
  std::vector<core::Tensor> inputs_;
  std::vector<TF_DataType> outputs_;
  std::optional<OpSignature> signature_;
  ::testing::NiceMock<MockKernelApi> api_;
};

template <>
constexpr TF_DataType DataTypeOf<float>() {
  return TF_FLOAT;
}
template <>
constexpr TF_DataType DataTypeOf<double>() {
  return TF_DOUBLE;
}
template <>
constexpr TF_DataType DataTypeOf<int8_t>() {
  return TF_INT8;
}
template <>
constexpr TF_DataType DataTypeOf<int16_t>() {
  return TF_INT16;
}
template <>
constexpr TF_DataType DataTypeOf<int32_t>() {
  return TF_INT32;
}
template <>
constexpr TF_DataType DataTypeOf<int64_t>() {
  return TF_INT64;
}
template <>
constexpr TF_DataType DataTypeOf<uint8_t>() {
  return TF_UINT8;
}
template <>
constexpr TF_DataType DataTypeOf<uint16_t>() {
  return TF_UINT16;
}
template <>
constexpr TF_DataType DataTypeOf<uint32_t>() {
  return TF_UINT32;
}
template <>
constexpr TF_DataType DataTypeOf<uint64_t>() {
  return TF_UINT64;
}

}  // namespace conformance::mocks
