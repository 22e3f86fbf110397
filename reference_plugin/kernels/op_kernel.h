#pragma once
// The C++ face of TensorFlow's kernel C API (tensorflow/c/kernels.h) for the reference kernels.
//
// A kernel is a class derived from OpKernel. Its constructor reads the node's attributes
// through AttrReader (TensorFlow calls create_func once per node); compute() runs per step:
//
//   class NegKernel : public OpKernel {
//    public:
//     NegKernel(AttrReader&, Status*) {}
//     Status compute(OpContext& ctx) override {
//       TensorRef x, y;
//       REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
//       REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, x.dtype(), x.shape(), &y));
//       return ctx.enqueue([in = x.data<float>(), out = y.data<float>(), n = x.num_elements()] {
//         for (int64_t i = 0; i < n; ++i) out[i] = -in[i];
//       });
//     }
//   };
//   register_kernel<NegKernel>({.op = "Neg", .type_constraints = {{"T", TF_FLOAT}}});
//
// The arithmetic is ENQUEUED on the kernel's device stream (TF_GetStream), like a real
// device: it runs on the stream's worker after the copies that deliver the inputs, and the
// results are there once the stream is synchronised. Only device addresses and sizes go into
// the queued work; the TF_Tensor handles are released when compute() returns (TensorFlow keeps
// the buffers alive, and stream order keeps later users of the memory behind this work).
// A non-OK Status from compute() or from the constructor is reported with
// TF_OpKernelContext_Failure / TF_OpKernelConstruction_Failure.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/tensor_shape.h"
#include "stream_executor/status.h"
#include "tensorflow/c/kernels.h"

namespace reference_plugin::kernels {

// An owned TF_Tensor handle: TF_DeleteTensor on destruction.
class TensorRef {
 public:
  TensorRef() = default;
  explicit TensorRef(TF_Tensor* tensor) : tensor_(tensor) {}
  ~TensorRef();
  TensorRef(TensorRef&& other) noexcept : tensor_(std::exchange(other.tensor_, nullptr)) {}
  TensorRef& operator=(TensorRef&& other) noexcept;
  TensorRef(const TensorRef&) = delete;
  TensorRef& operator=(const TensorRef&) = delete;

  TF_Tensor* get() const { return tensor_; }
  TF_DataType dtype() const { return TF_TensorType(tensor_); }
  Shape shape() const;
  int dims() const { return TF_NumDims(tensor_); }
  int64_t dim(int i) const { return TF_Dim(tensor_, i); }
  int64_t num_elements() const { return TF_TensorElementCount(tensor_); }
  // The element data: a device address for device tensors, a host address for host-memory
  // arguments. nullptr for tensors without elements.
  template <typename T>
  T* data() const {
    return static_cast<T*>(TF_TensorData(tensor_));
  }

 private:
  TF_Tensor* tensor_ = nullptr;
};

// Reads node attributes during create_func.
class AttrReader {
 public:
  explicit AttrReader(TF_OpKernelConstruction* construction) : construction_(construction) {}

  Status get(const char* name, bool* value);
  Status get(const char* name, float* value);
  Status get(const char* name, std::string* value);
  Status get(const char* name, std::vector<int64_t>* value);  // list(int)
  bool has(const char* name);
  std::string node_name() const;

 private:
  TF_OpKernelConstruction* construction_;
};

// What compute() works with: inputs, outputs and the device stream of one kernel call.
class OpContext {
 public:
  explicit OpContext(TF_OpKernelContext* context) : context_(context) {}

  int num_inputs() const { return TF_NumInputs(context_); }
  // The node's name (TF_GetOpKernelName), for messages that name it as TensorFlow's do.
  std::string kernel_name() const;
  Status input(int index, TensorRef* out);
  Status allocate_output(int index, TF_DataType dtype, const Shape& shape, TensorRef* out);
  // Makes output `index` the tensor itself (no copy, no device work): Identity-like kernels.
  Status set_output(int index, const TensorRef& tensor);
  // Makes output `index` a view of `tensor`'s buffer under another shape of as many elements
  // (TF_TensorBitcastFrom, no copy): Reshape-like kernels.
  Status set_output_reshaped(int index, const TensorRef& tensor, const Shape& shape);
  // Queues `work` on the kernel's device stream. Capture device addresses and sizes by value;
  // never the TensorRefs, which are released when compute() returns.
  Status enqueue(std::function<void()> work);

  TF_OpKernelContext* c_handle() const { return context_; }

 private:
  TF_OpKernelContext* context_;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status compute(OpContext& ctx) = 0;
};

// One kernel registration: the op, its type constraints (attr -> dtype) and the arguments
// that live in host memory (those whose values decide output shapes: axes, permutations, dims).
struct KernelSpec {
  const char* op = nullptr;
  std::vector<std::pair<const char*, TF_DataType>> type_constraints = {};
  std::vector<const char*> host_memory_args = {};
};

namespace internal {
using CreateFn = void* (*)(TF_OpKernelConstruction*);
void* finish_create(TF_OpKernelConstruction* construction, OpKernel* kernel, const Status& status);
void report_construction_failure(TF_OpKernelConstruction* construction, const Status& status);
Status register_builder(const KernelSpec& spec, CreateFn create);

template <typename Kernel>
void* create_kernel(TF_OpKernelConstruction* construction) {
  try {
    AttrReader attrs(construction);
    Status status;
    auto* kernel = new Kernel(attrs, &status);
    return finish_create(construction, kernel, status);
  } catch (const std::exception& e) {
    report_construction_failure(construction, internal_error("reference plugin: ", e.what()));
    return nullptr;
  }
}
}  // namespace internal

// Registers Kernel (constructible from (AttrReader&, Status*)) for the device type REFDEV.
template <typename Kernel>
Status register_kernel(const KernelSpec& spec) {
  return internal::register_builder(spec, &internal::create_kernel<Kernel>);
}

}  // namespace reference_plugin::kernels
