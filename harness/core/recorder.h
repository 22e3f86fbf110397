#pragma once
// What the mock TensorFlow core saw plugins do: every kernel and op registration, every
// builder call that returned an error, and how many core handles plugins still hold.
// The harness reads this after calling a plugin's entry points; the TF_* functions write it.
// Thread-safe. Lives in libtensorflow_framework.so.2 only (the _pywrap_tensorflow_internal.so
// twin forwards to it), so there is exactly one recorder per process.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#define CONFORMANCE_CORE_API __attribute__((visibility("default")))

namespace conformance::core {

struct KernelRegistration {
  std::string plugin;       // RecordingScope's plugin when the registration happened
  std::string kernel_name;  // name passed to TF_RegisterKernelBuilder*
  std::string op_name;
  std::string device_type;  // TF_NewKernelBuilder's device_name argument
  std::vector<std::pair<std::string, int>> type_constraints;  // attr -> TF_DataType, in call order
  std::vector<std::string> host_memory_args;
  int32_t priority = 0;
  std::string label;
  bool is_async = false;
  // The plugin's callbacks, kept for the kernel runtime (typed in kernels.h).
  void* create_func = nullptr;
  void* compute_func = nullptr;  // compute_func or compute_async_func
  void* delete_func = nullptr;
};

struct OpRegistration {
  std::string plugin;
  std::string name;
  std::vector<std::string> attrs, inputs, outputs;  // spec strings as given
  bool is_commutative = false, is_aggregate = false, is_stateful = false;
  bool allows_uninitialized_input = false;
  bool has_shape_inference = false;
  int status_code = 0;  // TF_Code TF_RegisterOpDefinition reported
  std::string status_message;
};

// A core call made by a plugin that set a non-OK status (e.g. an unsupported type
// constraint); plugins often ignore these, which is exactly what the checks look for.
struct CallError {
  std::string plugin;
  std::string function;  // e.g. "TF_KernelBuilder_TypeConstraint"
  std::string subject;   // e.g. the op name of the builder
  int code = 0;
  std::string message;
};

// Handles created through the C API and not yet released.
struct LiveHandles {
  int64_t statuses = 0;
  int64_t tensors = 0;
  int64_t buffers = 0;
  int64_t kernel_builders = 0;  // created, neither registered nor deleted
  int64_t op_builders = 0;
};

class CONFORMANCE_CORE_API Recorder {
 public:
  static Recorder& Instance();

  // Attribute everything recorded from now on to `plugin` (a path or label).
  void SetCurrentPlugin(std::string plugin);
  std::string CurrentPlugin() const;

  std::vector<KernelRegistration> Kernels() const;
  std::vector<OpRegistration> Ops() const;
  std::vector<CallError> CallErrors() const;
  LiveHandles Live() const;

  // Forget registrations and errors (live-handle counts keep counting).
  void Clear();

  // Used by the TF_* implementation.
  void AddKernel(KernelRegistration kernel);
  void AddOp(OpRegistration op);
  void AddCallError(CallError error);
  void CountHandle(int64_t LiveHandles::*kind, int64_t delta);

 private:
  Recorder() = default;
  struct State;
  State& state() const;
};

}  // namespace conformance::core
