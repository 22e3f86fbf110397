// kernels.h, compute half: TF_OpKernelContext functions on a KernelContext (allocation
// lives in kernel_allocation_api.cc). Where TensorFlow CHECK-fails or dereferences a
// null tensor, the mock aborts with a message saying so (Fatal).
#include <string>

#include "core/buffer.h"
#include "core/kernel_context.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"
#include "tensorflow/c/kernels.h"

namespace core = conformance::core;

namespace {

void Report(const char* function, TF_OpKernelContext* ctx, const core::Status& s) {
  core::RecordCallError(function, core::ContextOf(ctx).info().kernel_name, s);
}

core::Status OutOfRange(const char* what) {
  return core::Status::Error(TF_OUT_OF_RANGE, std::string(what) + " index out of range");
}

// TensorFlow's CHECK_GE/CHECK_LT on an index.
void CheckIndex(const char* function, int index, int count, const char* what) {
  if (index < 0 || index >= count) {
    core::Fatal(function, std::string(what) + " index " + std::to_string(index) +
                              " out of range [0, " + std::to_string(count) +
                              ") (TensorFlow CHECK-fails here)");
  }
}

TF_StringView View(const std::string& s) { return TF_StringView{s.data(), s.size()}; }

// Shared by the serialized-proto getters: bytes the harness supplied, or UNIMPLEMENTED.
void WriteOptional(const char* function, TF_OpKernelContext* ctx,
                   const std::optional<std::string>& bytes, TF_Buffer* out, TF_Status* status) {
  if (!bytes) {
    status->status = core::Unimplemented(function, core::ContextOf(ctx).info().kernel_name);
    return;
  }
  status->status = core::WriteToBuffer(*bytes, out);
  Report(function, ctx, status->status);
}

}  // namespace

extern "C" {

void TF_RunAsyncOpKernelDoneCallback(TF_AsyncOpKernelDoneCallback* done) {
  core::AsyncDone::FromC(done)->Run();
}

SP_Stream TF_GetStream(TF_OpKernelContext* ctx, TF_Status* status) {
  if (core::Status s = core::ContextOf(ctx).CallApiHook({.function = "TF_GetStream"}); !s.ok()) {
    status->status = s;
    return nullptr;
  }
  const core::DeviceDescriptor& device = core::ContextOf(ctx).device();
  switch (device.kind) {
    case core::DeviceKind::kCpu:
      status->status = core::Status::Error(
          TF_FAILED_PRECONDITION, "Accessing device stream is not supported for a CPU device.");
      break;
    case core::DeviceKind::kOther:
      status->status =
          core::Status::Error(TF_FAILED_PRECONDITION,
                              "Accessing device stream is only supported for pluggable devices.");
      break;
    case core::DeviceKind::kPluggable: status->status = core::Status::Ok(); return device.stream;
  }
  Report("TF_GetStream", ctx, status->status);
  return nullptr;
}

int TF_NumInputs(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).num_inputs(); }

int TF_NumOutputs(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).num_outputs(); }

void TF_GetInput(TF_OpKernelContext* ctx, int i, TF_Tensor** tensor, TF_Status* status) {
  if (core::Status s = core::ContextOf(ctx).CallApiHook({.function = "TF_GetInput", .index = i});
      !s.ok()) {
    status->status = s;
    return;
  }
  if (i < 0 || i >= core::ContextOf(ctx).num_inputs()) {
    status->status = OutOfRange("input");
    Report("TF_GetInput", ctx, status->status);
    return;
  }
  const auto& slot = core::ContextOf(ctx).input_slot(i);
  if (slot.options.is_ref) {
    core::Fatal("TF_GetInput",
                "input " + std::to_string(i) +
                    " is a ref input (TensorFlow's OpKernelContext::input CHECK-fails)");
  }
  core::Status s;
  TF_Tensor* result = core::TensorHandleForPlugin(slot.tensor, &s);
  status->status = s;
  if (s.ok()) *tensor = result;
  Report("TF_GetInput", ctx, s);
}

void TF_InputRange(TF_OpKernelContext* ctx, const char* name, TF_InputRange_Args* args) {
  if (args == nullptr || args->status == nullptr) {
    core::Fatal("TF_InputRange", "args->status must point to a TF_Status the caller owns");
  }
  const auto& ranges = core::ContextOf(ctx).input_ranges();
  auto it = ranges.find(std::string_view(name));
  if (it == ranges.end()) {
    args->start = -1;
    args->stop = -1;
    args->status->status =
        core::Status::Error(TF_INVALID_ARGUMENT, "Unknown input name: " + std::string(name));
    Report("TF_InputRange", ctx, args->status->status);
    return;
  }
  args->start = it->second.start;
  args->stop = it->second.stop;
  args->status->status = core::Status::Ok();
}

TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx, int index) {
  CheckIndex("TF_InputDatatype", index, core::ContextOf(ctx).num_inputs(), "input");
  return core::ContextOf(ctx).input_slot(index).tensor.dtype();
}

void TF_SetOutput(TF_OpKernelContext* ctx, int i, const TF_Tensor* tensor, TF_Status* status) {
  if (core::Status s = core::ContextOf(ctx).CallApiHook({.function = "TF_SetOutput", .index = i});
      !s.ok()) {
    status->status = s;
    return;
  }
  if (i < 0 || i >= core::ContextOf(ctx).num_outputs()) {
    status->status = OutOfRange("output");
    Report("TF_SetOutput", ctx, status->status);
    return;
  }
  if (tensor == nullptr) core::Fatal("TF_SetOutput", "tensor is NULL");
  auto& slot = core::ContextOf(ctx).output_slot(i);
  if (slot.value) {
    core::Fatal("TF_SetOutput", "output " + std::to_string(i) +
                                    " was already set or allocated (TensorFlow's set_output "
                                    "CHECK-fails on a second value)");
  }
  slot.value = tensor->tensor;  // shares the buffer; the caller keeps its handle
  status->status = core::Status::Ok();
}

TF_Tensor* TF_GetMutableOutput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (i < 0 || i >= core::ContextOf(ctx).num_outputs()) {
    status->status = OutOfRange("output");
    Report("TF_GetMutableOutput", ctx, status->status);
    return nullptr;
  }
  const auto& slot = core::ContextOf(ctx).output_slot(i);
  if (!slot.value) {
    core::Fatal("TF_GetMutableOutput", "output " + std::to_string(i) +
                                           " was never set or allocated (TensorFlow dereferences "
                                           "a null tensor here)");
  }
  core::Status s;
  TF_Tensor* result = core::TensorHandleForPlugin(*slot.value, &s);
  status->status = s;
  Report("TF_GetMutableOutput", ctx, s);
  return s.ok() ? result : nullptr;
}

void TF_GetSerializedFunctionDefLibrary(TF_OpKernelContext* ctx,
                                        TF_Buffer* serialized_function_def_library,
                                        TF_Status* status) {
  WriteOptional("TF_GetSerializedFunctionDefLibrary", ctx,
                core::ContextOf(ctx).info().serialized_function_library,
                serialized_function_def_library, status);
}

void TF_GetSerializedConfigProto(TF_OpKernelContext* ctx, TF_Buffer* serialized_config_proto,
                                 TF_Status* status) {
  WriteOptional("TF_GetSerializedConfigProto", ctx,
                core::ContextOf(ctx).info().serialized_config_proto, serialized_config_proto,
                status);
}

void TF_GetSerializedResourceHandleProto(TF_OpKernelContext* ctx, int i,
                                         TF_Buffer* serialized_resource_handle_proto,
                                         TF_Status* status) {
  CheckIndex("TF_GetSerializedResourceHandleProto", i, core::ContextOf(ctx).num_inputs(), "input");
  WriteOptional("TF_GetSerializedResourceHandleProto", ctx,
                core::ContextOf(ctx).input_slot(i).options.serialized_resource_handle,
                serialized_resource_handle_proto, status);
}

void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx, TF_Status* status) {
  if (status == nullptr) core::Fatal("TF_OpKernelContext_Failure", "status is NULL");
  core::ContextOf(ctx).Fail(status->status);
}

TF_DataType TF_ExpectedOutputDataType(TF_OpKernelContext* ctx, int i) {
  CheckIndex("TF_ExpectedOutputDataType", i, core::ContextOf(ctx).num_outputs(), "output");
  return core::ContextOf(ctx).output_slot(i).expected_dtype;
}

bool TF_IsHostMemoryInput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (i < 0 || i >= core::ContextOf(ctx).num_inputs()) {
    status->status = OutOfRange("input");
    Report("TF_IsHostMemoryInput", ctx, status->status);
    return false;
  }
  status->status = core::Status::Ok();
  return core::ContextOf(ctx).input_slot(i).options.host_memory;
}

bool TF_IsHostMemoryOutput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (i < 0 || i >= core::ContextOf(ctx).num_outputs()) {
    status->status = OutOfRange("output");
    Report("TF_IsHostMemoryOutput", ctx, status->status);
    return false;
  }
  status->status = core::Status::Ok();
  return core::ContextOf(ctx).output_slot(i).host_memory;
}

int64_t TF_StepId(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).info().step_id; }

uint64_t TF_GetFrameId(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).info().frame_id; }

int64_t TF_GetIterId(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).info().iter_id; }

int64_t TF_GetStepId(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).info().step_id; }

int TF_GetDeviceId(TF_OpKernelContext* ctx) { return core::ContextOf(ctx).device().id; }

TF_StringView TF_GetDeviceName(TF_OpKernelContext* ctx) {
  return View(core::ContextOf(ctx).device().name);
}

int TF_GetGraphDefVersion(TF_OpKernelContext* ctx) {
  return core::ContextOf(ctx).info().graph_def_version;
}

TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx) {
  return View(core::ContextOf(ctx).info().kernel_name);
}

TF_StringView TF_GetResourceMgrDefaultContainerName(TF_OpKernelContext* ctx) {
  return View(core::ContextOf(ctx).info().resource_container);
}

TF_StringView TF_GetOpKernelRequestedInput(TF_OpKernelContext* ctx, size_t index) {
  const auto& inputs = core::ContextOf(ctx).info().requested_inputs;
  if (index >= inputs.size()) {
    core::Fatal("TF_GetOpKernelRequestedInput",
                "index " + std::to_string(index) + " out of range for a node with " +
                    std::to_string(inputs.size()) +
                    " inputs (TensorFlow indexes NodeDef.input unchecked)");
  }
  return View(inputs[index]);
}

void TF_IncNumDeferredOps(TF_OpKernelContext* context) {
  core::ContextOf(context).AdjustDeferredOps(+1);
}

void TF_DecNumDeferredOps(TF_OpKernelContext* context) {
  core::ContextOf(context).AdjustDeferredOps(-1);
}

}  // extern "C"
