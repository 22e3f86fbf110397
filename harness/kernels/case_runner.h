#pragma once
// One kernel invocation on a plugin's device, the way TensorFlow's executor makes it:
//   1. inputs reach device memory through the plugin's allocate and memcpy_htod on the stream
//      (host-memory inputs stay on the host);
//   2. create_func / compute_func / delete_func run through the mock core (KernelInstance);
//   3. after the stream is synchronised, outputs come back through memcpy_dtoh.
// Around it, the runner measures what the kernel left behind: TF_Tensor/TF_Status handles,
// device memory, and input bytes it changed.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_context.h"
#include "core/recorder.h"
#include "kernels/host_tensor.h"
#include "kernels/kernel_target.h"

namespace conformance::kernels {

struct CaseInput {
  std::string name;  // the op's argument name (TF_InputRange; host-memory args)
  HostTensor value;
  // A resource variable holding `value` (kernels/device_variables.h): the kernel gets its
  // DT_RESOURCE handle.
  bool variable = false;
  // A reference input (ApplyAdam's Ref(T) var): a device tensor the kernel may update in place
  // (TF_IsRefInput; TF_GetInputTensorFromVariable hands it out), so no untouched-input check.
  bool ref = false;
};

struct CaseOutputSpec {
  std::string name;
  TF_DataType dtype = TF_FLOAT;
  // Not one of the kernel's outputs: the value of the variable or reference input `name` after
  // compute.
  bool variable = false;
};

// What to run: op, attrs (type attr included), inputs, outputs.
struct CaseSpec {
  std::string op;
  core::AttrMap attrs;
  std::vector<CaseInput> inputs;
  std::vector<CaseOutputSpec> outputs;
};

using Outputs = std::vector<std::optional<HostTensor>>;  // nullopt: never set

// A device input whose bytes changed although the core never granted its buffer to an output
// (TF_ForwardInputOrAllocateOutput): the caller's tensor, which TensorFlow still hands to other
// consumers, now holds what the kernel wrote.
struct ChangedInput {
  int index = 0;
  // The output whose buffer it became through TF_SetOutput (-1: none): the kernel took the
  // input's buffer for its result without asking.
  int set_as_output = -1;
  std::string element = {};  // the first changed element's index, "[1,0]"
  std::string reads = {};    // the elements from there on now, "[11, 22, 33]"
  std::string was = {};      // and what the caller put there, "[1, 2, 3]"
};

struct RunMode {
  // Inputs arrive late: their copies queue behind a host callback that holds the stream until
  // compute returns (kernels/stream_gate.h says when it gives way earlier), so only work
  // ordered on the stream sees them.
  bool late_inputs = false;
  // Outputs are read with memcpy_dtoh queued right after compute returns, before any host
  // wait, exactly as the next op on the stream would read them.
  bool read_right_after_compute = false;
  // The first read-back is handed to `accept`; when it says no, the runner reads again (after
  // synchronising) with growing pauses for up to `settle_for`, and keeps the first accepted
  // read. A kernel that finishes off the stream is then judged on its values by the case
  // checks and on its ordering by kernel.<Op>.work_after_compute, once each.
  std::function<bool(const Outputs&)> accept;
  std::chrono::milliseconds settle_for{300};
  // TensorFlow's lifetimes: the inputs are released right after compute returns, while the
  // kernel's work is still queued (the stream is held until then), and their buffers go back to
  // the plugin's deallocate at once. TensorFlow without its BFC allocator does exactly that.
  // The inputs are then not read back (they are gone).
  bool release_inputs_at_enqueue = false;
  // Fault injection through the context's kernel API hook (core::KernelApiCall).
  core::KernelApiHook fault_hook;
  // A step run first by the same kernel instance on the same input buffers, holding these
  // values (same dtypes and shapes as the case's; host-memory inputs keep the case's values),
  // as TensorFlow's next step reuses a node's kernel and often its buffers. Its outputs are
  // not looked at.
  std::vector<HostTensor> earlier_step_inputs;
  // Read the earlier step's outputs back too (CaseOutcome::earlier_step_outputs): a stateful
  // kernel's two steps on one instance, compared (random draws must differ). The earlier step
  // runs then even for an op without inputs (Timestamp).
  bool keep_earlier_step_outputs = false;
  // The variables start the case where the earlier step left them, not from the case's values
  // again: a stateful random op's state variable (StatefulStandardNormal's) moves on from step
  // to step as in TensorFlow, so a second step draws anew only if the first moved it.
  bool variables_carry_over = false;
};

struct CaseOutcome {
  bool ran = false;           // false: the harness could not run it (see harness_error)
  std::string harness_error;  // a runtime call failed (copies, synchronisation)
  bool construction_failed = false;
  TF_Code code = TF_OK;  // TF_OpKernelConstruction_Failure / TF_OpKernelContext_Failure
  std::string message;
  Outputs outputs;
  Outputs earlier_step_outputs;  // RunMode::keep_earlier_step_outputs
  bool settled = false;          // the values accepted were the second read
  std::vector<ChangedInput> changed_inputs;
  std::int64_t leaked_tensors = 0, leaked_statuses = 0;
  std::int64_t leaked_device_bytes = 0;
  // Sizes of the device buffers (inputs, outputs, temps) whose guard bytes were overwritten:
  // the kernel wrote past their end.
  std::vector<std::size_t> overwritten_guards;
  int async_done_calls = -1;  // async kernels: TF_RunAsyncOpKernelDoneCallback calls
  // release_inputs_at_enqueue: the input buffers went back to the plugin while the stream was
  // still held (false when the hold ended first, e.g. compute waited on its own stream).
  bool released_while_held = false;
  // late_inputs: how the hold on the stream ended (runtime::StreamGate::Release), so a report
  // and a test can tell a gate released when the device waited from one held to its limit.
  std::string stream_hold_release;
};

// Whether the kernel takes argument `name` in host memory (TF_KernelBuilder_HostMemory).
bool IsHostMemoryArg(const core::KernelRegistration& kernel, const std::string& name);
// The bytes of `tensor` the harness copies back: its shape's, in checked arithmetic (a kernel
// may set any shape on a buffer of its own), never more than its buffer holds, which came from
// an allocator that refuses what the device cannot hold.
std::size_t DenseBytes(const core::Tensor& tensor);
// Called before a context frees the tensors it holds (every context a kernel computed in): string
// elements the kernel left invalid are forgotten, not freed (string_values.h), so a kernel's
// garbage fails its comparison instead of crashing the harness when the context goes.
void ForgetInvalidStrings(core::KernelContext& ctx);

class CaseRunner {
 public:
  explicit CaseRunner(KernelTarget& target) : target_(target) {}
  CaseOutcome Run(const core::KernelRegistration& kernel, const CaseSpec& spec,
                  const RunMode& mode = {});

 private:
  KernelTarget& target_;
};

}  // namespace conformance::kernels
