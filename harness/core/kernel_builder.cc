// kernels.h, registration half: TF_KernelBuilder and TF_RegisterKernelBuilder*. A builder
// is a KernelRegistration in the making; registering hands it to the Recorder (the mock
// core's kernel registry) and frees the builder.
#include <cstring>
#include <string>

#include "core/c_strings.h"
#include "core/datatype.h"
#include "core/kernel_def_parser.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"
#include "tensorflow/c/kernels.h"

struct TF_KernelBuilder {
  conformance::core::KernelRegistration registration;
};

namespace core = conformance::core;

namespace {

template <typename Fn>
void* ErasedFunction(Fn* fn) {
  return reinterpret_cast<void*>(fn);
}

TF_KernelBuilder* NewBuilder(const char* op_name, const char* device_name, bool is_async,
                             void* create, void* compute, void* destroy) {
  auto* builder = new TF_KernelBuilder;
  builder->registration.op_name = core::StringOrEmpty(op_name);
  builder->registration.device_type = core::StringOrEmpty(device_name);
  builder->registration.is_async = is_async;
  builder->registration.create_func = create;
  builder->registration.compute_func = compute;
  builder->registration.delete_func = destroy;
  core::CountLive(&core::LiveHandles::kernel_builders, +1);
  return builder;
}

// Ownership passes to the core: the builder is recorded and freed.
void Consume(TF_KernelBuilder* builder, core::KernelRegistration registration) {
  core::Recorder::Instance().AddKernel(std::move(registration));
  core::CountLive(&core::LiveHandles::kernel_builders, -1);
  delete builder;
}

}  // namespace

extern "C" {

TF_KernelBuilder* TF_NewKernelBuilder(const char* op_name, const char* device_name,
                                      void* (*create_func)(TF_OpKernelConstruction*),
                                      void (*compute_func)(void*, TF_OpKernelContext*),
                                      void (*delete_func)(void*)) {
  return NewBuilder(op_name, device_name, /*is_async=*/false, ErasedFunction(create_func),
                    ErasedFunction(compute_func), ErasedFunction(delete_func));
}

TF_KernelBuilder* TF_NewAsyncKernelBuilder(
    const char* op_name, const char* device_name, void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_async_func)(void*, TF_OpKernelContext*, TF_AsyncOpKernelDoneCallback* done),
    void (*delete_func)(void*)) {
  return NewBuilder(op_name, device_name, /*is_async=*/true, ErasedFunction(create_func),
                    ErasedFunction(compute_async_func), ErasedFunction(delete_func));
}

void TF_KernelBuilder_TypeConstraint(TF_KernelBuilder* kernel_builder, const char* attr_name,
                                     TF_DataType type, TF_Status* status) {
  if (!core::IsKernelConstraintType(type)) {
    // TensorFlow leaves the constraint out and reports the raw enum value.
    status->status = core::Status::Error(
        TF_UNIMPLEMENTED, "Unexpected type " + std::to_string(static_cast<int>(type)));
    core::RecordCallError("TF_KernelBuilder_TypeConstraint", kernel_builder->registration.op_name,
                          status->status);
    return;
  }
  kernel_builder->registration.type_constraints.emplace_back(core::StringOrEmpty(attr_name),
                                                             static_cast<int>(type));
  status->status = core::Status::Ok();
}

void TF_KernelBuilder_HostMemory(TF_KernelBuilder* kernel_builder, const char* arg_name) {
  kernel_builder->registration.host_memory_args.push_back(core::StringOrEmpty(arg_name));
}

void TF_KernelBuilder_Priority(TF_KernelBuilder* kernel_builder, int32_t priority_number) {
  kernel_builder->registration.priority = priority_number;
}

void TF_KernelBuilder_Label(TF_KernelBuilder* kernel_builder, const char* label) {
  auto& registration = kernel_builder->registration;
  if (!registration.label.empty()) {
    // TensorFlow's KernelDefBuilder::Label CHECK-fails on a second label.
    core::Fatal("TF_KernelBuilder_Label", "Trying to set a kernel's label a second time: '" +
                                              core::StringOrEmpty(label) + "' (kernel for op '" +
                                              registration.op_name + "' already has label '" +
                                              registration.label + "')");
  }
  registration.label = core::StringOrEmpty(label);
}

void TF_RegisterKernelBuilder(const char* kernel_name, TF_KernelBuilder* builder,
                              TF_Status* status) {
  TF_RegisterKernelBuilderWithKernelDef(nullptr, kernel_name, builder, status);
}

void TF_RegisterKernelBuilderWithKernelDef(const char* serialized_kernel_def, const char* name,
                                           TF_KernelBuilder* builder, TF_Status* status) {
  if (builder == nullptr) {
    core::Fatal("TF_RegisterKernelBuilderWithKernelDef",
                "builder is NULL (TensorFlow dereferences it)");
  }
  core::KernelRegistration registration = builder->registration;
  registration.kernel_name = core::StringOrEmpty(name);
  if (serialized_kernel_def != nullptr) {
    // Parsed from a NUL-terminated string, as TensorFlow does: bytes after the first NUL
    // are never seen.
    auto def = core::ParseKernelDef(
        std::string_view(serialized_kernel_def, std::strlen(serialized_kernel_def)));
    if (!def) {
      // TensorFlow does not take the builder in this case; it stays the plugin's.
      status->status =
          core::Status::Error(TF_INVALID_ARGUMENT, "Error parsing serialized KernelDef.");
      core::RecordCallError("TF_RegisterKernelBuilderWithKernelDef", registration.kernel_name,
                            status->status);
      return;
    }
    // The KernelDef replaces everything the builder declared except its callbacks.
    registration.op_name = def->op;
    registration.device_type = def->device_type;
    registration.type_constraints = def->type_constraints;
    registration.host_memory_args = def->host_memory_args;
    registration.label = def->label;
    registration.priority = def->priority;
  }
  Consume(builder, std::move(registration));
  status->status = core::Status::Ok();
}

void TF_DeleteKernelBuilder(TF_KernelBuilder* builder) {
  if (builder == nullptr) return;
  core::CountLive(&core::LiveHandles::kernel_builders, -1);
  delete builder;
}

}  // extern "C"
