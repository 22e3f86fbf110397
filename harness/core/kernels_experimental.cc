// kernels_experimental.h, all but the resource-variable functions (variables_api.cc). The
// ref-variable and variant helpers need TensorFlow's ref tensors and Variant registry, which
// the mock core does not have: they report UNIMPLEMENTED naming themselves. The
// input/attribute helpers work.
#include <string>

#include "core/kernel_context.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"
#include "tensorflow/c/kernels_experimental.h"

namespace core = conformance::core;

namespace {

const std::string& KernelName(TF_OpKernelContext* ctx) {
  return core::ContextOf(ctx).info().kernel_name;
}

void SetUnimplemented(const char* function, TF_OpKernelContext* ctx, TF_Status* status) {
  status->status = core::Unimplemented(function, KernelName(ctx));
}

}  // namespace

extern "C" {

void TF_AssignRefVariable(TF_OpKernelContext* ctx, int, int, int, bool, bool,
                          void (*)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*),
                          TF_Status* status) {
  SetUnimplemented("TF_AssignRefVariable", ctx, status);
}

void TF_OpKernelContext_ForwardRefInputToRefOutput(TF_OpKernelContext* ctx, int32_t input_index,
                                                   int32_t output_index) {
  core::KernelContext& context = core::ContextOf(ctx);
  if (input_index < 0 || input_index >= context.num_inputs()) {
    core::Fatal(
        "TF_OpKernelContext_ForwardRefInputToRefOutput",
        "input index " + std::to_string(input_index) + " out of range (TensorFlow CHECK-fails)");
  }
  auto& input = context.input_slot(input_index);
  // TensorFlow does nothing for resource inputs.
  if (input.tensor.dtype() == TF_RESOURCE) return;
  if (!input.options.is_ref) {
    core::Fatal(
        "TF_OpKernelContext_ForwardRefInputToRefOutput",
        "input " + std::to_string(input_index) + " is not a ref input (TensorFlow CHECK-fails)");
  }
  if (output_index < 0 || output_index >= context.num_outputs()) {
    core::Fatal(
        "TF_OpKernelContext_ForwardRefInputToRefOutput",
        "output index " + std::to_string(output_index) + " out of range (TensorFlow CHECK-fails)");
  }
  // The output aliases the input's buffer (the mock has no separate ref objects).
  context.output_slot(output_index).value = input.tensor;
  input.forwarded = true;
}

void TF_GetInputByName(TF_OpKernelContext* ctx, const char* inputName, TF_Tensor** tensor,
                       TF_Status* status) {
  core::KernelContext& context = core::ContextOf(ctx);
  const std::string name = inputName == nullptr ? "" : inputName;
  core::Status s;
  const auto& ranges = context.input_ranges();
  auto it = ranges.find(name);
  if (it == ranges.end()) {
    s = core::Status::Error(TF_INVALID_ARGUMENT, "Unknown input name: " + name);
  } else if (it->second.stop != it->second.start + 1) {
    s = core::Status::Error(TF_INVALID_ARGUMENT, "OpKernel used list-valued input name '" + name +
                                                     "' when single-valued input was expected");
  } else if (context.input_slot(it->second.start).options.is_ref) {
    s = core::Status::Error(TF_INVALID_ARGUMENT, "OpKernel used ref input name '" + name +
                                                     "' when non-ref input was expected");
  } else {
    TF_Tensor* result =
        core::TensorHandleForPlugin(context.input_slot(it->second.start).tensor, &s);
    if (s.ok()) *tensor = result;
  }
  status->status = s;
  core::RecordCallError("TF_GetInputByName", KernelName(ctx), s);
}

void TF_OpKernelConstruction_GetAttrTensorShape(TF_OpKernelConstruction* ctx, const char* attr_name,
                                                int64_t* dims, size_t num_dims, TF_Status* status) {
  core::KernelConstruction& ctor = *core::KernelConstruction::FromC(ctx);
  std::vector<int64_t> shape;
  core::Status s = core::GetAttrTensorShape(ctor.node().attrs, ctor.node().name, attr_name, &shape);
  if (s.ok() && num_dims != shape.size()) {
    s = core::Status::Error(TF_INVALID_ARGUMENT, "Expected rank is " + std::to_string(num_dims) +
                                                     " but actual rank is " +
                                                     std::to_string(shape.size()));
  }
  if (s.ok()) {
    for (size_t i = 0; i < shape.size(); ++i) dims[i] = shape[i];
  }
  status->status = s;
  core::RecordCallError("TF_OpKernelConstruction_GetAttrTensorShape", ctor.node().name, s);
}

bool TF_IsRefInput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (i < 0 || i >= core::ContextOf(ctx).num_inputs()) {
    status->status = core::Status::Error(TF_OUT_OF_RANGE, "input index out of range");
    core::RecordCallError("TF_IsRefInput", KernelName(ctx), status->status);
    return false;
  }
  status->status = core::Status::Ok();
  return core::ContextOf(ctx).input_slot(i).options.is_ref;
}

void TF_AddNVariant(TF_OpKernelContext* ctx,
                    void (*)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*, TF_Tensor*),
                    TF_Status* status) {
  SetUnimplemented("TF_AddNVariant", ctx, status);
}

void TF_ZerosLikeVariant(TF_OpKernelContext* ctx,
                         void (*)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*), TF_Status* status) {
  SetUnimplemented("TF_ZerosLikeVariant", ctx, status);
}

}  // extern "C"
