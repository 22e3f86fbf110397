// kernels.h, allocation: TF_AllocateOutput, TF_ForwardInputOrAllocateOutput,
// TF_AllocateTemp. Memory comes from the context's device descriptor (device allocator,
// or host memory for host-memory outputs, on_host temporaries and the CPU device).
#include <sstream>
#include <string>
#include <string_view>

#include "core/kernel_context.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"
#include "tensorflow/c/kernels.h"

namespace core = conformance::core;

namespace {

core::Status Internal(std::string message) {
  return core::Status::Error(TF_INTERNAL, std::move(message));
}

// TensorFlow's OpKernelContext::allocate_output, messages included. The dtype is always
// the kernel's expected output dtype (TF_AllocateOutput's dtype/len are ignored).
core::Status AllocateOutput(core::KernelContext& ctx, int index, core::Shape shape) {
  const std::string& kernel = ctx.info().kernel_name;
  if (index < 0) {
    return Internal("allocate_output with bad index=" + std::to_string(index) +
                    " kernel=" + kernel);
  }
  if (index >= ctx.num_outputs()) {
    return Internal("allocate_output with bad index=" + std::to_string(index) +
                    " num_outputs=" + std::to_string(ctx.num_outputs()) + " kernel=" + kernel);
  }
  auto& slot = ctx.output_slot(index);
  if (slot.value) {
    std::ostringstream existing;
    existing << slot.value->data();
    return Internal(
        "allocate_output on same index multiple times. index = " + std::to_string(index) +
        " mutable_output(index) = " + existing.str() + " kernel=" + kernel);
  }
  core::Status s;
  core::Tensor tensor = ctx.Allocate(slot.expected_dtype, std::move(shape), slot.host_memory, &s);
  if (s.ok()) slot.value = std::move(tensor);
  return s;
}

// TensorFlow's forward_input: same dtype, element count and memory type, not a ref, and
// an unshared core-owned buffer. Returns true and fills the output when it forwards.
bool TryForward(core::KernelContext& ctx, int input_index, int output_index,
                const core::Shape& shape) {
  if (input_index < 0 || input_index >= ctx.num_inputs()) {
    core::Fatal("TF_ForwardInputOrAllocateOutput",
                "candidate input index " + std::to_string(input_index) + " out of range [0, " +
                    std::to_string(ctx.num_inputs()) + ") (TensorFlow CHECK-fails here)");
  }
  auto& input = ctx.input_slot(input_index);
  auto& output = ctx.output_slot(output_index);
  if (input.options.is_ref || !input.tensor.IsInitialized()) return false;
  if (input.tensor.dtype() != output.expected_dtype) return false;
  if (input.tensor.NumElements() != core::NumElements(shape)) return false;
  if (input.options.host_memory != output.host_memory) return false;
  if (!input.tensor.RefCountIsOne()) return false;
  output.value = core::Tensor(output.expected_dtype, shape, input.tensor.buffer());
  input.forwarded = true;
  return true;
}

TF_Tensor* HandleFor(TF_OpKernelContext* context, const core::Tensor& tensor, const char* function,
                     TF_Status* status) {
  core::Status s;
  TF_Tensor* handle = core::TensorHandleForPlugin(tensor, &s);
  status->status = s;
  core::RecordCallError(function, core::ContextOf(context).info().kernel_name, s);
  return s.ok() ? handle : nullptr;
}

}  // namespace

extern "C" {

TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context, int index, TF_DataType,
                             const int64_t* dims, int num_dims, size_t, TF_Status* status) {
  core::Shape shape = core::ShapeFromDims("TF_AllocateOutput", dims, num_dims);
  if (core::Status s = core::ContextOf(context).CallApiHook(
          {.function = "TF_AllocateOutput", .index = index, .shape = &shape});
      !s.ok()) {
    status->status = s;  // CallApiHook recorded it
    return nullptr;
  }
  if (core::Status s = AllocateOutput(core::ContextOf(context), index, std::move(shape)); !s.ok()) {
    status->status = s;
    core::RecordCallError("TF_AllocateOutput", core::ContextOf(context).info().kernel_name, s);
    return nullptr;
  }
  return HandleFor(context, *core::ContextOf(context).output_slot(index).value, "TF_AllocateOutput",
                   status);
}

TF_Tensor* TF_ForwardInputOrAllocateOutput(TF_OpKernelContext* context,
                                           const int* candidate_input_indices,
                                           int num_candidate_input_indices, int output_index,
                                           const int64_t* output_dims, int output_num_dims,
                                           int* forwarded_input, TF_Status* status) {
  core::KernelContext& ctx = core::ContextOf(context);
  core::Shape shape =
      core::ShapeFromDims("TF_ForwardInputOrAllocateOutput", output_dims, output_num_dims);
  if (core::Status s = ctx.CallApiHook(
          {.function = "TF_ForwardInputOrAllocateOutput", .index = output_index, .shape = &shape});
      !s.ok()) {
    status->status = s;
    return nullptr;
  }
  // An out-of-range output index goes straight to allocate_output's error.
  if (output_index >= 0 && output_index < ctx.num_outputs()) {
    for (int k = 0; k < num_candidate_input_indices; ++k) {
      if (TryForward(ctx, candidate_input_indices[k], output_index, shape)) {
        if (forwarded_input != nullptr) *forwarded_input = candidate_input_indices[k];
        return HandleFor(context, *ctx.output_slot(output_index).value,
                         "TF_ForwardInputOrAllocateOutput", status);
      }
    }
  }
  if (forwarded_input != nullptr) *forwarded_input = -1;
  core::Status s = AllocateOutput(ctx, output_index, std::move(shape));
  if (!s.ok()) {
    status->status = s;
    core::RecordCallError("TF_ForwardInputOrAllocateOutput", ctx.info().kernel_name, s);
    return nullptr;
  }
  return HandleFor(context, *ctx.output_slot(output_index).value, "TF_ForwardInputOrAllocateOutput",
                   status);
}

TF_Tensor* TF_AllocateTemp(TF_OpKernelContext* context, TF_DataType dtype, const int64_t* dims,
                           int num_dims, TF_AllocatorAttributes* alloc_attrs, TF_Status* status) {
  core::KernelContext& ctx = core::ContextOf(context);
  core::Shape shape = core::ShapeFromDims("TF_AllocateTemp", dims, num_dims);
  if (core::Status s =
          ctx.CallApiHook({.function = "TF_AllocateTemp", .shape = &shape, .dtype = dtype});
      !s.ok()) {
    status->status = s;
    return nullptr;
  }
  if (alloc_attrs != nullptr && alloc_attrs->struct_size == 0) {
    status->status = core::Status::Error(TF_INVALID_ARGUMENT,
                                         "TF_AllocatorAttributes struct size member must be set to "
                                         "TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE");
    core::RecordCallError("TF_AllocateTemp", ctx.info().kernel_name, status->status);
    return nullptr;
  }
  const bool on_host = alloc_attrs != nullptr && alloc_attrs->on_host != 0;
  core::Status s;
  core::Tensor tensor = ctx.Allocate(dtype, std::move(shape), on_host, &s);
  if (!s.ok()) {
    status->status = s;
    core::RecordCallError("TF_AllocateTemp", ctx.info().kernel_name, s);
    return nullptr;
  }
  ctx.CountTempAllocation();
  return HandleFor(context, tensor, "TF_AllocateTemp", status);
}

}  // extern "C"
