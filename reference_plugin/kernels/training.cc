// ResourceApplyGradientDescent: var -= alpha * delta, in place on the variable's buffer.
// `var` is a DT_RESOURCE handle (host memory, as TensorFlow's device kernels register it); the
// kernel locks the variable (exclusively with use_locking, shared otherwise), gets its tensor
// with TF_GetInputTensorFromVariable (TensorFlow copies it first, through copy_on_device, when
// a reader still shares the buffer) and queues the update on the stream. The functions come
// from variable_api.h: registered only where the process has them.
#include <cstring>
#include <string>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"
#include "kernels/variable_api.h"
#include "tensorflow/c/tf_status.h"

namespace reference_plugin::kernels {
namespace {

// TensorFlow's copyFunc: dest = source, on the device, in stream order.
void copy_on_device(TF_OpKernelContext* context, TF_Tensor* source, TF_Tensor* dest) {
  OpContext ctx(context);
  const Status status =
      ctx.enqueue([from = TF_TensorData(source), to = TF_TensorData(dest),
                   bytes = TF_TensorByteSize(source)] { std::memcpy(to, from, bytes); });
  if (!status.ok()) {
    TF_Status* tf_status = TF_NewStatus();
    report_status(tf_status, status);
    TF_OpKernelContext_Failure(context, tf_status);
    TF_DeleteStatus(tf_status);
  }
}

// Releases the variable locks on every path out of compute().
class VariableLocks {
 public:
  explicit VariableLocks(TF_VariableInputLockHolder* holder) : holder_(holder) {}
  ~VariableLocks() { variable_api().release_locks(holder_); }
  VariableLocks(const VariableLocks&) = delete;
  VariableLocks& operator=(const VariableLocks&) = delete;

 private:
  TF_VariableInputLockHolder* holder_;
};

template <typename T>
class ApplyGradientDescentKernel : public OpKernel {
 public:
  ApplyGradientDescentKernel(AttrReader& attrs, Status* status) {
    if (attrs.has("use_locking")) *status = attrs.get("use_locking", &use_locking_);
  }

  Status compute(OpContext& ctx) override {
    const VariableApi& api = variable_api();
    TF_OpKernelContext* context = ctx.c_handle();
    TF_Status* tf_status = TF_NewStatus();
    const int var_input[] = {0};
    TF_VariableInputLockHolder* holder = nullptr;
    api.lock_inputs(context, use_locking_, /*sparse=*/false, var_input, 1, &copy_on_device, &holder,
                    tf_status);
    Status status = status_from_tf(tf_status);
    if (!status.ok()) {
      TF_DeleteStatus(tf_status);
      return status;
    }
    VariableLocks locks(holder);
    TF_Tensor* var_handle = nullptr;
    api.input_from_variable(context, 0, /*lock_held=*/true, /*isVariantType=*/false,
                            /*sparse=*/false, &copy_on_device, &var_handle, tf_status);
    status = status_from_tf(tf_status);
    TF_DeleteStatus(tf_status);
    REFERENCE_RETURN_IF_ERROR(status);
    // TensorFlow reports a variable it cannot find on the context, with no tensor.
    if (var_handle == nullptr) return Status();
    TensorRef var(var_handle), alpha, delta;
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &alpha));
    REFERENCE_RETURN_IF_ERROR(ctx.input(2, &delta));
    if (alpha.dims() != 0) {
      return invalid_argument("alpha is not a scalar: ", shape_string(alpha.shape()));
    }
    if (var.shape() != delta.shape()) {
      // TensorFlow's text, without a space before the first shape.
      return invalid_argument("var and delta do not have the same shape", shape_string(var.shape()),
                              " ", shape_string(delta.shape()));
    }
    if (var.num_elements() == 0) return Status();
    return ctx.enqueue([v = var.data<T>(), a = alpha.data<const T>(), d = delta.data<const T>(),
                        n = var.num_elements()] {
      for (int64_t i = 0; i < n; ++i) v[i] -= *a * d[i];
    });
  }

 private:
  bool use_locking_ = false;
};

}  // namespace

Status register_training_kernels() {
  if (!variable_api().complete()) return Status();  // TensorFlow 2.21: not offered
  return register_for_types<ApplyGradientDescentKernel>("ResourceApplyGradientDescent",
                                                        TypeList<float, double>{}, "T", {"var"});
}

}  // namespace reference_plugin::kernels
