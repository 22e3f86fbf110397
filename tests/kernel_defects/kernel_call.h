// What the kernels of the test kernel plugin (kernel_plugin.cc, edge_value_kernels.cc) share:
// shapes, queueing work on the stream, and one float kernel call's inputs and output.
#ifndef PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_KERNEL_CALL_H_
#define PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_KERNEL_CALL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {

using Dims = std::vector<int64_t>;

inline Dims DimsOf(const TF_Tensor* t) {
  Dims dims(static_cast<std::size_t>(TF_NumDims(t)));
  for (std::size_t i = 0; i < dims.size(); ++i) dims[i] = TF_Dim(t, static_cast<int>(i));
  return dims;
}

inline int64_t NumElements(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// Queues `work` on the stream through the device's host_callback (kernel_plugin.cc): the
// simulated device running the kernel.
void EnqueueWork(SP_Stream stream, std::function<void()> work);

// The first `count` inputs, the output allocated in `dims` (float unless a dtype is given), and
// the stream; false (with
// the failure reported when the call ends) when the core refused any of them.
struct KernelCall {
  TF_OpKernelContext* ctx;
  TF_Status* status = TF_NewStatus();
  std::vector<TF_Tensor*> inputs;
  TF_Tensor* output = nullptr;
  SP_Stream stream = nullptr;

  explicit KernelCall(TF_OpKernelContext* context) : ctx(context) {}
  KernelCall(const KernelCall&) = delete;
  KernelCall& operator=(const KernelCall&) = delete;
  ~KernelCall() {
    if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
    for (TF_Tensor* t : inputs) TF_DeleteTensor(t);
    TF_DeleteTensor(output);
    TF_DeleteStatus(status);
  }
  bool Inputs(int count) {
    for (int i = 0; i < count; ++i) {
      TF_Tensor* t = nullptr;
      TF_GetInput(ctx, i, &t, status);
      if (TF_GetCode(status) != TF_OK) return false;
      inputs.push_back(t);
    }
    return true;
  }
  bool Output(const Dims& dims) { return Output(TF_FLOAT, dims); }
  bool Output(TF_DataType dtype, const Dims& dims) {
    output =
        TF_AllocateOutput(ctx, 0, dtype, dims.data(), static_cast<int>(dims.size()),
                          static_cast<size_t>(NumElements(dims)) * TF_DataTypeSize(dtype), status);
    if (TF_GetCode(status) != TF_OK) return false;
    stream = TF_GetStream(ctx, status);
    return TF_GetCode(status) == TF_OK;
  }
  void Fail(TF_Code code, const char* message) { TF_SetStatus(status, code, message); }
  template <typename T = float>
  const T* In(int i) const {
    return static_cast<const T*>(TF_TensorData(inputs[static_cast<std::size_t>(i)]));
  }
  template <typename T = float>
  T* Out() const {
    return static_cast<T*>(TF_TensorData(output));
  }
};

// The float kernels of the edge-value defects (edge_value_kernels.cc), each registered only in
// the variant about it: nothing in the others.
void RegisterEdgeValueKernels(const char* device_type, TF_Status* status);
// The kernels of the generated cases' input classes (input_class_kernels.cc), likewise.
void RegisterInputClassKernels(const char* device_type, TF_Status* status);
// The stateful random kernels (random_kernels.cc), likewise.
void RegisterRandomKernels(const char* device_type, TF_Status* status);
// The kernels that update resource variables (variable_kernels.cc), likewise.
void RegisterVariableKernels(const char* device_type, TF_Status* status);
// The kernels of string tensors (string_kernels.cc), likewise.
void RegisterStringKernels(const char* device_type, TF_Status* status);
// The complex64 kernels (complex_kernels.cc), likewise.
void RegisterComplexKernels(const char* device_type, TF_Status* status);
// The kernels whose inputs are lists of types (type_list_kernels.cc), likewise.
void RegisterTypeListKernels(const char* device_type, TF_Status* status);
// The stateful random kernels on a Philox state variable (philox_kernels.cc), likewise.
void RegisterPhiloxKernels(const char* device_type, TF_Status* status);
// The quantized kernels (quantized_kernels.cc), likewise.
void RegisterQuantizedKernels(const char* device_type, TF_Status* status);
// The kernels of ops recorded through a CPU stand-in (standin_kernels.cc), likewise.
void RegisterStandInKernels(const char* device_type, TF_Status* status);
// The _FusedMatMul kernels (fused_matmul_kernels.cc), likewise.
void RegisterFusedMatMulKernels(const char* device_type, TF_Status* status);
// The kernels judged through another dtype's record or at every dtype (dtype_cell_kernels.cc).
void RegisterDtypeCellKernels(const char* device_type, TF_Status* status);
// The kernel of a oneDNN layout op (mkl_layout_kernels.cc), likewise.
void RegisterMklLayoutKernels(const char* device_type, TF_Status* status);
// The kernels of ops without inputs (source_kernels.cc), likewise.
void RegisterSourceKernels(const char* device_type, TF_Status* status);
// RandomPoisson and StatefulStandardNormal (legacy_random_kernels.cc), likewise.
void RegisterLegacyRandomKernels(const char* device_type, TF_Status* status);
// The kernels of ops the plugin defines itself, judged through a TensorFlow op's record
// (plugin_op_kernels.cc).
void RegisterPluginOpKernels(const char* device_type, TF_Status* status);

}  // namespace kernel_plugin

#endif  // PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_KERNEL_CALL_H_
