#include "kernels/op_kernel.h"

#include <exception>
#include <memory>

#include "profiler/trace_recorder.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/platform.h"
#include "stream_executor/stream.h"
#include "tensorflow/c/tf_status.h"

namespace reference_plugin::kernels {
namespace {

// A TF_Status for one call into the core, released on every path.
class ScopedTfStatus {
 public:
  ScopedTfStatus() : status_(TF_NewStatus()) {}
  ~ScopedTfStatus() { TF_DeleteStatus(status_); }
  ScopedTfStatus(const ScopedTfStatus&) = delete;
  ScopedTfStatus& operator=(const ScopedTfStatus&) = delete;

  TF_Status* get() const { return status_; }
  Status to_status() const { return status_from_tf(status_); }

 private:
  TF_Status* status_;
};

}  // namespace

TensorRef::~TensorRef() {
  if (tensor_ != nullptr) TF_DeleteTensor(tensor_);
}

TensorRef& TensorRef::operator=(TensorRef&& other) noexcept {
  if (this != &other) {
    if (tensor_ != nullptr) TF_DeleteTensor(tensor_);
    tensor_ = std::exchange(other.tensor_, nullptr);
  }
  return *this;
}

Shape TensorRef::shape() const {
  Shape shape(static_cast<std::size_t>(dims()));
  for (int i = 0; i < dims(); ++i) shape[static_cast<std::size_t>(i)] = dim(i);
  return shape;
}

// ---- AttrReader -------------------------------------------------------------------------

Status AttrReader::get(const char* name, bool* value) {
  ScopedTfStatus status;
  TF_Bool b = 0;
  TF_OpKernelConstruction_GetAttrBool(construction_, name, &b, status.get());
  if (TF_GetCode(status.get()) == TF_OK) *value = b != 0;
  return status.to_status();
}

Status AttrReader::get(const char* name, float* value) {
  ScopedTfStatus status;
  TF_OpKernelConstruction_GetAttrFloat(construction_, name, value, status.get());
  return status.to_status();
}

Status AttrReader::get(const char* name, std::string* value) {
  ScopedTfStatus status;
  int32_t list_size = 0;
  int32_t total_size = 0;
  TF_OpKernelConstruction_GetAttrSize(construction_, name, &list_size, &total_size, status.get());
  if (TF_GetCode(status.get()) != TF_OK) return status.to_status();
  std::string text(static_cast<std::size_t>(total_size), '\0');
  TF_OpKernelConstruction_GetAttrString(construction_, name, text.data(), text.size(),
                                        status.get());
  if (TF_GetCode(status.get()) == TF_OK) *value = std::move(text);
  return status.to_status();
}

Status AttrReader::get(const char* name, std::vector<int64_t>* value) {
  ScopedTfStatus status;
  int32_t list_size = 0;
  int32_t total_size = 0;
  TF_OpKernelConstruction_GetAttrSize(construction_, name, &list_size, &total_size, status.get());
  if (TF_GetCode(status.get()) != TF_OK) return status.to_status();
  if (list_size < 0) return invalid_argument("Attr ", name, " is not a list");
  std::vector<int64_t> values(static_cast<std::size_t>(list_size));
  TF_OpKernelConstruction_GetAttrInt64List(construction_, name, values.data(), list_size,
                                           status.get());
  if (TF_GetCode(status.get()) == TF_OK) *value = std::move(values);
  return status.to_status();
}

bool AttrReader::has(const char* name) {
  ScopedTfStatus status;
  return TF_OpKernelConstruction_HasAttr(construction_, name, status.get());
}

std::string AttrReader::node_name() const {
  TF_StringView name = TF_OpKernelConstruction_GetName(construction_);
  return std::string(name.data, name.len);
}

// ---- OpContext --------------------------------------------------------------------------

std::string OpContext::kernel_name() const {
  const TF_StringView name = TF_GetOpKernelName(context_);
  return std::string(name.data, name.len);
}

Status OpContext::input(int index, TensorRef* out) {
  ScopedTfStatus status;
  TF_Tensor* tensor = nullptr;
  TF_GetInput(context_, index, &tensor, status.get());
  *out = TensorRef(tensor);
  return status.to_status();
}

Status OpContext::allocate_output(int index, TF_DataType dtype, const Shape& shape,
                                  TensorRef* out) {
  ScopedTfStatus status;
  const std::size_t bytes = static_cast<std::size_t>(num_elements(shape)) * TF_DataTypeSize(dtype);
  TF_Tensor* tensor = TF_AllocateOutput(context_, index, dtype, shape.data(),
                                        static_cast<int>(shape.size()), bytes, status.get());
  *out = TensorRef(tensor);
  if (TF_GetCode(status.get()) != TF_OK) return status.to_status();
  // A core that reports success without a tensor would make us write through NULL.
  if (tensor == nullptr)
    return internal_error("TF_AllocateOutput returned no tensor for output ", index);
  return Status();
}

Status OpContext::set_output(int index, const TensorRef& tensor) {
  ScopedTfStatus status;
  TF_SetOutput(context_, index, tensor.get(), status.get());
  return status.to_status();
}

Status OpContext::set_output_reshaped(int index, const TensorRef& tensor, const Shape& shape) {
  ScopedTfStatus status;
  // An empty host tensor (shape [0]: a scalar would need a buffer) as the target;
  // TF_TensorBitcastFrom points it at tensor's buffer.
  const int64_t empty[] = {0};
  TensorRef view(TF_AllocateTensor(tensor.dtype(), empty, 1, 0));
  if (view.get() == nullptr) return internal_error("TF_AllocateTensor returned no tensor");
  TF_TensorBitcastFrom(tensor.get(), tensor.dtype(), view.get(), shape.data(),
                       static_cast<int>(shape.size()), status.get());
  if (TF_GetCode(status.get()) != TF_OK) return status.to_status();
  return set_output(index, view);
}

Status OpContext::enqueue(std::function<void()> work) {
  ScopedTfStatus status;
  SP_Stream stream = TF_GetStream(context_, status.get());
  if (TF_GetCode(status.get()) != TF_OK) return status.to_status();
  if (stream == nullptr) return internal_error("TF_GetStream returned no stream");
  // SP_Stream_st is our Stream (stream_executor/stream.h): ordering, sticky errors and events
  // come with it. A failed stream skips the work, as a faulted hardware queue would.
  // A profiling session sees the kernel under its node name (asked only while one runs).
  std::string kernel;
  if (profiler::TraceRecorder::instance().active()) {
    const TF_StringView name = TF_GetOpKernelName(context_);
    kernel.assign(name.data, name.len);
  }
  return stream->enqueue_operation(
      profiler::traced(stream->name(), std::move(kernel), [work = std::move(work)] {
        work();
        return Status();
      }));
}

// ---- Registration and the C callbacks -----------------------------------------------------

namespace internal {

void report_construction_failure(TF_OpKernelConstruction* construction, const Status& status) {
  ScopedTfStatus tf_status;
  report_status(tf_status.get(), status);
  TF_OpKernelConstruction_Failure(construction, tf_status.get());
}

void* finish_create(TF_OpKernelConstruction* construction, OpKernel* kernel, const Status& status) {
  if (status.ok()) return kernel;
  // TensorFlow discards a kernel whose construction failed; delete_func accepts NULL.
  delete kernel;
  report_construction_failure(construction, status);
  return nullptr;
}

namespace {

void compute_kernel(void* kernel, TF_OpKernelContext* context) {
  OpContext ctx(context);
  Status status;
  try {
    status = static_cast<OpKernel*>(kernel)->compute(ctx);
  } catch (const std::bad_alloc&) {
    status = resource_exhausted("reference plugin: out of host memory");
  } catch (const std::exception& e) {
    status = internal_error("reference plugin: ", e.what());
  }
  if (status.ok()) return;
  ScopedTfStatus tf_status;
  report_status(tf_status.get(), status);
  TF_OpKernelContext_Failure(context, tf_status.get());
}

void delete_kernel(void* kernel) { delete static_cast<OpKernel*>(kernel); }

std::string kernel_name(const KernelSpec& spec) {
  std::string name = std::string(spec.op) + "/" + kDeviceType;
  for (const auto& [attr, dtype] : spec.type_constraints) {
    name += std::string("/") + attr + "=" + std::to_string(static_cast<int>(dtype));
  }
  return name;
}

}  // namespace

Status register_builder(const KernelSpec& spec, CreateFn create) {
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder(spec.op, kDeviceType, create, &compute_kernel, &delete_kernel);
  ScopedTfStatus status;
  for (const auto& [attr, dtype] : spec.type_constraints) {
    TF_KernelBuilder_TypeConstraint(builder, attr, dtype, status.get());
    if (TF_GetCode(status.get()) != TF_OK) {
      TF_DeleteKernelBuilder(builder);
      return status.to_status();
    }
  }
  for (const char* arg : spec.host_memory_args) TF_KernelBuilder_HostMemory(builder, arg);
  // Registration takes the builder, also when it fails.
  TF_RegisterKernelBuilder(kernel_name(spec).c_str(), builder, status.get());
  return status.to_status();
}

}  // namespace internal
}  // namespace reference_plugin::kernels
