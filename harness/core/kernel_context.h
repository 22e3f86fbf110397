#pragma once
// The objects behind TF_OpKernelConstruction and TF_OpKernelContext, as real C++ types.
// The harness (and the fake kernel context in mocks/, and the kernel runtime) builds one,
// fills in inputs and attributes, hands c_handle() to a plugin's create/compute callback,
// and reads outputs and the failure status afterwards. Every TF_* kernel function
// operates on these objects.
//
//   KernelConstruction ctor(NodeDef{.name = "add", .op = "AddV2", .attrs = {{"T", TF_FLOAT}}});
//   void* kernel = create_func(ctor.c_handle());      // or KernelInstance, kernel_instance.h
//   KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", stream));
//   ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {2}, {1, 2}));
//   ctx.AddOutput(TF_FLOAT);
//   compute_func(kernel, ctx.c_handle());
//   if (ctx.status().ok()) use(*ctx.output(0));
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes.h"
#include "core/device.h"
#include "core/export.h"
#include "core/node.h"
#include "core/status.h"
#include "core/tensor.h"
#include "tensorflow/c/kernels.h"

namespace conformance::core {

// ---- Construction ----------------------------------------------------------------------

class CONFORMANCE_CORE_API KernelConstruction {
 public:
  explicit KernelConstruction(NodeDef node, DeviceDescriptor device = DeviceDescriptor::Cpu());
  KernelConstruction(const KernelConstruction&) = delete;
  KernelConstruction& operator=(const KernelConstruction&) = delete;

  const NodeDef& node() const { return node_; }
  NodeDef& node() { return node_; }
  const DeviceDescriptor& device() const { return device_; }
  void SetAttr(std::string name, AttrValue value) {
    node_.attrs[std::move(name)] = std::move(value);
  }

  // First error passed to TF_OpKernelConstruction_Failure (OK if none).
  const Status& status() const { return status_; }
  void Fail(const Status& status) { status_.Update(status); }

  TF_OpKernelConstruction* c_handle() { return reinterpret_cast<TF_OpKernelConstruction*>(this); }
  static KernelConstruction* FromC(TF_OpKernelConstruction* ctx) {
    return reinterpret_cast<KernelConstruction*>(ctx);
  }

 private:
  NodeDef node_;
  DeviceDescriptor device_;
  Status status_;
};

// ---- Compute context -------------------------------------------------------------------

struct InputOptions {
  bool host_memory = false;  // TF_IsHostMemoryInput
  bool is_ref = false;       // TF_IsRefInput; TF_GetInput on a ref input aborts, as in TensorFlow
  // What TF_GetSerializedResourceHandleProto returns for this input (a serialized
  // ResourceHandleProto); without it that function is UNIMPLEMENTED.
  std::optional<std::string> serialized_resource_handle = {};
};

// Per-call facts a kernel can query; defaults are what a fresh TensorFlow step looks like.
struct KernelContextInfo {
  std::string kernel_name = "node";                // TF_GetOpKernelName (the node name)
  std::vector<std::string> requested_inputs = {};  // TF_GetOpKernelRequestedInput (NodeDef.input)
  int64_t step_id = 0;                             // TF_StepId / TF_GetStepId
  uint64_t frame_id = 0;                           // TF_GetFrameId
  int64_t iter_id = 0;                             // TF_GetIterId
  int graph_def_version = 0;                       // TF_GetGraphDefVersion
  std::string resource_container = "localhost";    // TF_GetResourceMgrDefaultContainerName
  // Returned by TF_GetSerializedConfigProto / TF_GetSerializedFunctionDefLibrary when
  // set; without them those functions are UNIMPLEMENTED (no session, no function library).
  std::optional<std::string> serialized_config_proto = {};
  std::optional<std::string> serialized_function_library = {};
};

// A kernel C API call offered to the context's hook before the core handles it: the kernel
// tier injects its "the core said no" faults through it (conformance/kernels), the fake kernel
// context puts gmock expectations on it (mocks/kernel_test.h). An error the hook returns is
// what the function reports to the plugin instead of doing its work, exactly like a real
// failure of it (recorded as a call error too).
struct KernelApiCall {
  std::string_view function;  // "TF_GetInput", "TF_AllocateOutput", "TF_AllocateTemp",
                              // "TF_ForwardInputOrAllocateOutput", "TF_SetOutput", "TF_GetStream"
  int index = -1;             // the input or output index, where the function has one
  const Shape* shape = nullptr;  // the requested shape of allocations
  TF_DataType dtype = TF_FLOAT;  // TF_AllocateTemp's dtype
};
using KernelApiHook = std::function<Status(const KernelApiCall&)>;

struct ArgRange {
  int start = 0;
  int stop = 0;
};

class CONFORMANCE_CORE_API KernelContext {
 public:
  struct InputSlot {
    Tensor tensor;
    InputOptions options;
    // The core granted this input's buffer to an output (TF_ForwardInputOrAllocateOutput, or a
    // ref input forwarded to a ref output): only then may the kernel write into it.
    bool forwarded = false;
  };
  struct OutputSlot {
    TF_DataType expected_dtype = TF_FLOAT;
    bool host_memory = false;
    std::optional<Tensor> value;  // set by TF_SetOutput / TF_AllocateOutput / forwarding
  };

  explicit KernelContext(DeviceDescriptor device = DeviceDescriptor::Cpu());
  KernelContext(const KernelContext&) = delete;
  KernelContext& operator=(const KernelContext&) = delete;

  // --- Set-up, before the plugin runs ---
  // Returns the input index. Move the tensor in (no other copy) if the kernel may forward
  // it to an output: forwarding needs an unshared buffer, as in TensorFlow.
  int AddInput(Tensor tensor, InputOptions options = {});
  // Declares output `index` (returned) with the dtype the kernel must produce.
  int AddOutput(TF_DataType expected_dtype, bool host_memory = false);
  // Input argument name -> [start, stop) indices (TF_InputRange, TF_GetInputByName).
  void SetInputRange(std::string arg_name, int start, int stop) {
    input_ranges_[std::move(arg_name)] = ArgRange{start, stop};
  }
  KernelContextInfo& info() { return info_; }
  const KernelContextInfo& info() const { return info_; }

  // --- Results, after the plugin ran ---
  const Status& status() const { return status_; }  // first TF_OpKernelContext_Failure
  const std::optional<Tensor>& output(int i) const {
    return outputs_.at(static_cast<std::size_t>(i)).value;
  }
  int64_t deferred_ops() const { return deferred_ops_; }  // Inc minus Dec
  int64_t temp_allocations() const { return temp_allocations_; }

  // --- State the C API works on ---
  const DeviceDescriptor& device() const { return device_; }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  InputSlot& input_slot(int i) { return inputs_.at(static_cast<std::size_t>(i)); }
  OutputSlot& output_slot(int i) { return outputs_.at(static_cast<std::size_t>(i)); }
  const std::map<std::string, ArgRange, std::less<>>& input_ranges() const { return input_ranges_; }
  void Fail(const Status& status) { status_.Update(status); }
  void SetApiHook(KernelApiHook hook) { api_hook_ = std::move(hook); }
  // What the hook says about `call` (OK without a hook); an error is recorded as a call error.
  Status CallApiHook(const KernelApiCall& call) const;
  void AdjustDeferredOps(int64_t delta) { deferred_ops_ += delta; }
  // Allocates dtype/shape on this device (host memory when `on_host`), with TensorFlow's
  // OOM message naming the device.
  Tensor Allocate(TF_DataType dtype, Shape shape, bool on_host, Status* status);
  void CountTempAllocation() { ++temp_allocations_; }

  TF_OpKernelContext* c_handle() { return reinterpret_cast<TF_OpKernelContext*>(this); }
  static KernelContext* FromC(TF_OpKernelContext* ctx) {
    return reinterpret_cast<KernelContext*>(ctx);
  }

 private:
  DeviceDescriptor device_;
  KernelContextInfo info_;
  std::vector<InputSlot> inputs_;
  std::vector<OutputSlot> outputs_;
  std::map<std::string, ArgRange, std::less<>> input_ranges_;
  Status status_;
  int64_t deferred_ops_ = 0;
  int64_t temp_allocations_ = 0;
  KernelApiHook api_hook_;
};

// The context behind the C API's handle, for the C API's implementations.
inline KernelContext& ContextOf(TF_OpKernelContext* ctx) { return *KernelContext::FromC(ctx); }

// ---- Async completion ------------------------------------------------------------------

// The object behind TF_AsyncOpKernelDoneCallback: counts TF_RunAsyncOpKernelDoneCallback
// calls (a plugin must make exactly one) and runs `on_done` on each.
class CONFORMANCE_CORE_API AsyncDone {
 public:
  explicit AsyncDone(std::function<void()> on_done = {}) : on_done_(std::move(on_done)) {}
  AsyncDone(const AsyncDone&) = delete;
  AsyncDone& operator=(const AsyncDone&) = delete;

  void Run();
  int calls() const;

  TF_AsyncOpKernelDoneCallback* c_handle() {
    return reinterpret_cast<TF_AsyncOpKernelDoneCallback*>(this);
  }
  static AsyncDone* FromC(TF_AsyncOpKernelDoneCallback* done) {
    return reinterpret_cast<AsyncDone*>(done);
  }

 private:
  std::function<void()> on_done_;
  int calls_ = 0;
  mutable std::mutex mu_;
};

}  // namespace conformance::core
