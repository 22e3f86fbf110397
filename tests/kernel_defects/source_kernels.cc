// Kernels of ops without inputs (specs/ops/families/source_families.yaml), judged from the
// recorded oracle: their attrs are their cases.
//   -DSOURCE_KERNELS                     Const and HostConst (float: the value attr copied out),
//                                        GraphDefVersion (2474, TensorFlow 2.21.0's),
//                                        IsTensorFloat32Enabled (true, the default),
//                                        DeviceIndex (the device type's index in device_names,
//                                        else their number), NoOp and ControlTrigger (nothing),
//                                        FakeParam and _ParallelConcatStart (float: a tensor of
//                                        the shape attr, where the core offers
//                                        TF_OpKernelConstruction_GetAttrTensorShape)
//   -DDEFECT_CONST_DROPS_TAIL            the same, but Const copies at most 1024 elements (a
//                                        4 KiB staging buffer): wrong past them
//   -DDEFECT_GRAPH_DEF_VERSION_OLD       the same, but GraphDefVersion gives 1882 (an older
//                                        release's, compiled into a plugin built against it)
//   -DGRAPH_DEF_VERSION_2_15             the same, but GraphDefVersion gives 1645: TensorFlow
//                                        2.15.1's, right for a plugin built for 2.15 (the
//                                        record's 2.15.1 overlay), wrong for a newer one
//   -DDEFECT_DEVICE_INDEX_ZERO_IF_ABSENT the same, but DeviceIndex gives 0 when the device's
//                                        type is not among the names
//   -DDEFECT_NO_OP_FAILS                 the same, but NoOp's compute fails (UNIMPLEMENTED)
//   -DDEFECT_FAKE_PARAM_FLAT             the same, but FakeParam's tensor is flat ([6] for
//                                        [2,3])
//   -DDEFECT_TIMESTAMP_SINCE_BOOT        the same, but Timestamp (the wall clock's seconds
//                                        since the Unix epoch, float64) reads a monotonic
//                                        clock: seconds since the machine started
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../support/core_function.h"
#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(SOURCE_KERNELS) || defined(DEFECT_CONST_DROPS_TAIL) ||                          \
    defined(DEFECT_GRAPH_DEF_VERSION_OLD) || defined(DEFECT_DEVICE_INDEX_ZERO_IF_ABSENT) || \
    defined(DEFECT_NO_OP_FAILS) || defined(DEFECT_FAKE_PARAM_FLAT) ||                       \
    defined(DEFECT_TIMESTAMP_SINCE_BOOT) || defined(GRAPH_DEF_VERSION_2_15)
#define ANY_SOURCE_KERNELS 1
#endif

#if defined(ANY_SOURCE_KERNELS)
std::string g_device_type;  // DeviceIndex looks its own type up

// A constant: the value attr's dtype, dims and bytes, read once at construction.
struct Constant {
  TF_DataType dtype = TF_FLOAT;
  Dims dims;
  std::vector<char> bytes;
};

void* CreateConst(TF_OpKernelConstruction* construction) {
  auto* constant = new Constant;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* value = nullptr;
  TF_OpKernelConstruction_GetAttrTensor(construction, "value", &value, status);
  if (TF_GetCode(status) == TF_OK) {
    constant->dtype = TF_TensorType(value);
    constant->dims = DimsOf(value);
    const auto* data = static_cast<const char*>(TF_TensorData(value));
    constant->bytes.assign(data, data + TF_TensorByteSize(value));
  } else {
    TF_OpKernelConstruction_Failure(construction, status);
  }
  TF_DeleteTensor(value);
  TF_DeleteStatus(status);
  return constant;
}
void DeleteConst(void* kernel) { delete static_cast<Constant*>(kernel); }

void ComputeConst(void* kernel, TF_OpKernelContext* ctx) {
  const auto* constant = static_cast<const Constant*>(kernel);
  KernelCall call(ctx);
  if (!call.Output(constant->dtype, constant->dims) || constant->bytes.empty()) return;
  std::size_t bytes = constant->bytes.size();
#if defined(DEFECT_CONST_DROPS_TAIL)
  bytes = std::min<std::size_t>(bytes, 1024 * TF_DataTypeSize(constant->dtype));
#endif
  // The work holds its own copy: the kernel object may go before the stream runs it.
  EnqueueWork(call.stream, [out = static_cast<char*>(TF_TensorData(call.output)),
                            in = std::vector<char>(
                                constant->bytes.begin(),
                                constant->bytes.begin() + static_cast<std::ptrdiff_t>(bytes))] {
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = in[i];
  });
}

// HostConst's output is in host memory: written during compute.
void ComputeHostConst(void* kernel, TF_OpKernelContext* ctx) {
  const auto* constant = static_cast<const Constant*>(kernel);
  KernelCall call(ctx);
  if (!call.Output(constant->dtype, constant->dims) || constant->bytes.empty()) return;
  std::memcpy(TF_TensorData(call.output), constant->bytes.data(), constant->bytes.size());
}

void* CreateNothing(TF_OpKernelConstruction* /*construction*/) { return nullptr; }
void DeleteNothing(void* /*kernel*/) {}

// A host-memory scalar output of `dtype` holding `value`.
template <typename T>
void HostScalar(TF_OpKernelContext* ctx, TF_DataType dtype, T value) {
  KernelCall call(ctx);
  if (!call.Output(dtype, {})) return;
  *static_cast<T*>(TF_TensorData(call.output)) = value;
}

void ComputeGraphDefVersion(void* /*kernel*/, TF_OpKernelContext* ctx) {
#if defined(DEFECT_GRAPH_DEF_VERSION_OLD)
  HostScalar<int32_t>(ctx, TF_INT32, 1882);
#elif defined(GRAPH_DEF_VERSION_2_15)
  HostScalar<int32_t>(ctx, TF_INT32, 1645);  // TensorFlow 2.15.1's, measured on its wheel
#else
  HostScalar<int32_t>(ctx, TF_INT32, 2474);  // TensorFlow 2.21.0's, measured on its wheel
#endif
}

void ComputeTensorFloat32(void* /*kernel*/, TF_OpKernelContext* ctx) {
  HostScalar<bool>(ctx, TF_BOOL, true);
}

// DeviceIndex: the device_names attr, read once.
void* CreateDeviceIndex(TF_OpKernelConstruction* construction) {
  auto* names = new std::vector<std::string>;
  TF_Status* status = TF_NewStatus();
  int32_t count = 0, total = 0;
  TF_OpKernelConstruction_GetAttrSize(construction, "device_names", &count, &total, status);
  if (TF_GetCode(status) == TF_OK && count > 0) {
    std::vector<char*> values(static_cast<std::size_t>(count));
    std::vector<std::size_t> lengths(static_cast<std::size_t>(count));
    std::vector<char> storage(static_cast<std::size_t>(total));
    TF_OpKernelConstruction_GetAttrStringList(construction, "device_names", values.data(),
                                              lengths.data(), count, storage.data(), storage.size(),
                                              status);
    for (int32_t i = 0; TF_GetCode(status) == TF_OK && i < count; ++i)
      names->emplace_back(values[static_cast<std::size_t>(i)],
                          lengths[static_cast<std::size_t>(i)]);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(construction, status);
  TF_DeleteStatus(status);
  return names;
}
void DeleteDeviceIndex(void* kernel) { delete static_cast<std::vector<std::string>*>(kernel); }

void ComputeDeviceIndex(void* kernel, TF_OpKernelContext* ctx) {
  const auto& names = *static_cast<const std::vector<std::string>*>(kernel);
  auto index = static_cast<int32_t>(names.size());
#if defined(DEFECT_DEVICE_INDEX_ZERO_IF_ABSENT)
  index = 0;
#endif
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == g_device_type) index = static_cast<int32_t>(i);
  }
  HostScalar<int32_t>(ctx, TF_INT32, index);
}

void ComputeTimestamp(void* /*kernel*/, TF_OpKernelContext* ctx) {
#if defined(DEFECT_TIMESTAMP_SINCE_BOOT)
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
#else
  const auto now = std::chrono::system_clock::now().time_since_epoch();
#endif
  HostScalar<double>(ctx, TF_DOUBLE, std::chrono::duration<double>(now).count());
}

void ComputeNothing(void* /*kernel*/, TF_OpKernelContext* /*ctx*/) {}

[[maybe_unused]] void ComputeFailingNoOp(void* /*kernel*/, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_SetStatus(status, TF_UNIMPLEMENTED, "NoOp is not implemented on this device");
  TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteStatus(status);
}

// FakeParam and _ParallelConcatStart: the shape attr, read with the experimental getter where
// the core offers it (TensorFlow 2.19 on export none: the kernels are not registered there).
using GetAttrTensorShape = void (*)(TF_OpKernelConstruction*, const char*, int64_t*, size_t,
                                    TF_Status*);
GetAttrTensorShape ShapeGetter() {
  static const auto getter = reinterpret_cast<GetAttrTensorShape>(
      conformance::test_support::FindCoreFunction("TF_OpKernelConstruction_GetAttrTensorShape"));
  return getter;
}

void* CreateShaped(TF_OpKernelConstruction* construction) {
  auto* dims = new Dims;
  TF_Status* status = TF_NewStatus();
  int32_t list = 0, rank = 0;  // a shape attr's rank is its total size
  TF_OpKernelConstruction_GetAttrSize(construction, "shape", &list, &rank, status);
  if (TF_GetCode(status) == TF_OK && rank >= 0) {
    dims->resize(static_cast<std::size_t>(rank));
    ShapeGetter()(construction, "shape", dims->data(), dims->size(), status);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(construction, status);
  TF_DeleteStatus(status);
  return dims;
}

void* CreateFakeParam(TF_OpKernelConstruction* construction) {
  auto* dims = static_cast<Dims*>(CreateShaped(construction));
#if defined(DEFECT_FAKE_PARAM_FLAT)
  *dims = Dims{NumElements(*dims)};
#endif
  return dims;
}
void DeleteShaped(void* kernel) { delete static_cast<Dims*>(kernel); }

void ComputeShaped(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  call.Output(*static_cast<const Dims*>(kernel));  // its values are undefined
}

using Create = void* (*)(TF_OpKernelConstruction*);
using Compute = void (*)(void*, TF_OpKernelContext*);
using Delete = void (*)(void*);

// `op`'s kernel; `float_dtype` constrains its dtype attr to float, `host_output` names an
// output in host memory.
void Register(const char* op, Create create, Compute compute, Delete destroy, TF_Status* status,
              bool float_dtype = false, const char* host_output = nullptr) {
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder(op, g_device_type.c_str(), create, compute, destroy);
  if (float_dtype) TF_KernelBuilder_TypeConstraint(builder, "dtype", TF_FLOAT, status);
  if (host_output != nullptr) TF_KernelBuilder_HostMemory(builder, host_output);
  TF_RegisterKernelBuilder(op, builder, status);
}
#endif

}  // namespace

void RegisterSourceKernels([[maybe_unused]] const char* device_type,
                           [[maybe_unused]] TF_Status* status) {
#if defined(ANY_SOURCE_KERNELS)
  g_device_type = device_type;
  Register("Const", CreateConst, ComputeConst, DeleteConst, status, true);
  Register("HostConst", CreateConst, ComputeHostConst, DeleteConst, status, true, "output");
  Register("GraphDefVersion", CreateNothing, ComputeGraphDefVersion, DeleteNothing, status, false,
           "version");
  Register("IsTensorFloat32Enabled", CreateNothing, ComputeTensorFloat32, DeleteNothing, status,
           false, "enabled");
  Register("DeviceIndex", CreateDeviceIndex, ComputeDeviceIndex, DeleteDeviceIndex, status, false,
           "index");
#if defined(DEFECT_NO_OP_FAILS)
  Register("NoOp", CreateNothing, ComputeFailingNoOp, DeleteNothing, status);
#else
  Register("NoOp", CreateNothing, ComputeNothing, DeleteNothing, status);
#endif
  Register("ControlTrigger", CreateNothing, ComputeNothing, DeleteNothing, status);
  Register("Timestamp", CreateNothing, ComputeTimestamp, DeleteNothing, status, false, "ts");
  if (ShapeGetter() == nullptr) return;
  Register("FakeParam", CreateFakeParam, ComputeShaped, DeleteShaped, status, true);
  Register("_ParallelConcatStart", CreateShaped, ComputeShaped, DeleteShaped, status, true);
#endif
}

}  // namespace kernel_plugin
