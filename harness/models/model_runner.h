#pragma once
// One model run on a plugin's device, node by node through the mock core, the way
// TensorFlow's executor runs a graph on a PluggableDevice:
//   - the model's inputs reach the device through memcpy_htod on the compute stream;
//   - every node gets its inputs from the tensors earlier nodes left on the device, and its
//     outputs stay there; nothing synchronises before the model's outputs are read;
//   - a tensor whose last consumer is the node is handed over unshared, so the kernel may
//     forward it (TF_ForwardInputOrAllocateOutput); otherwise it stays shared and forwarding
//     is refused, as TensorFlow's reference counts decide;
//   - a buffer freed after its last use is handed to the next request of its size
//     (ReusingAllocator), within a step and across steps;
//   - each node keeps its kernel instance over all steps;
//   - a node input naming a variable reads its value (ReadVariableOp, sharing its buffer) at the
//     start of the step, or, after a node of the step updated it, again just before its first
//     reader after that update (as each training step of a graph with several steps reads the
//     variables the previous one wrote).
// Chained mode holds the stream (a host callback queued after the input copies) until the last
// node's compute returns: the device lags behind the host, as a busy device does, so every
// kernel is computed while its inputs are still queued work. Sequential mode (the oracle)
// synchronises after every node instead and reads every node's outputs back.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host_tensor.h"
#include "kernels/kernel_target.h"
#include "models/model_scenario.h"

namespace conformance::models {

struct ModelRunMode {
  enum class Kind {
    kChained,     // the stream held from the input copies until the last compute returned
    kSequential,  // every node synchronised and read back; inputs still needed re-checked
    kWindow,      // sequential, except nodes [window_first, window_last] run under one hold
  };
  Kind kind = Kind::kChained;
  std::size_t window_first = 0, window_last = 0;
  // Chained mode only: before a node that updates a variable and before one that reads a
  // variable an earlier node of the step updated, copy (memcpy_dtod, queued on the stream like
  // the node) the bytes those inputs have on the stream at that point (StepOutputs::probes).
  bool probe_variables = false;
  // Chained mode only, for a plugin without the BFC allocator: free buffers the way the BFC
  // allocator would (in stream order, into a free list) instead of TensorFlow's way for such a
  // plugin (to its deallocate at once). The models tier's diagnosis compares the two.
  bool defer_release = false;
};

// The bytes a node's input had on the stream just before the node ran (a device-to-device copy
// queued right before its compute, read back after the step).
struct StreamProbe {
  std::size_t node = 0;
  std::string tensor;  // the input's tensor name (a variable's name for its value or handle)
  kernels::HostTensor value;
};

// A node that did not run as TensorFlow requires.
struct NodeFailure {
  std::size_t node = 0;
  std::string call;     // "create_func" / "compute_func"
  std::string problem;  // for the root cause: what went wrong
  std::string message;
  int step = 0;
};

// Sequential mode: a tensor a later node (or the model's output) still needed whose bytes a
// node changed although the core had not forwarded it to that node's output.
struct CorruptedInput {
  std::size_t node = 0;
  std::string tensor;
  int step = 0;
};

struct StepOutputs {
  std::vector<kernels::HostTensor> outputs;  // the model's outputs, in the model's order
  // Sequential and window modes: every node's outputs, read right after it ran.
  // A node that updates variables has their values after it appended (NodeResultNames).
  std::vector<std::vector<kernels::HostTensor>> node_outputs;
  // Sequential mode: the values of the variables each node updates, read just before it ran.
  std::vector<std::vector<kernels::HostTensor>> node_variables_before;
  // Every node's input and output buffer addresses, in that order: whether a later step gave
  // a kernel the very buffers of an earlier one.
  std::vector<std::vector<std::uintptr_t>> node_buffers;
  // ModelRunMode::probe_variables: what the probed inputs held on the stream, in node order.
  std::vector<StreamProbe> probes;
};

struct ModelOutcome {
  std::string harness_error;  // a runtime call of ours failed (copies, synchronisation)
  std::optional<NodeFailure> failure;
  std::optional<CorruptedInput> corrupted;
  std::vector<StepOutputs> steps;
  std::int64_t leaked_tensors = 0, leaked_statuses = 0, leaked_device_bytes = 0;
  bool ran() const { return harness_error.empty() && !failure; }
};

// The inputs of step `step` of `model` in `dtype`: seeded from the run's seed, the model's
// check id, the step and the input, so both plugins see the same values.
std::vector<kernels::HostTensor> StepInputs(const ModelScenario& model, TF_DataType dtype, int step,
                                            std::uint64_t seed);

// The names of node `node`'s results in StepOutputs::node_outputs: its outputs, then the
// variables it updates (those fed to a DT_RESOURCE argument).
std::vector<std::string> NodeResultNames(const ModelScenario& model, std::size_t node);

// The ops of `model` the plugin has no kernel for in `dtype` (empty: it can run the model).
std::vector<std::string> MissingOps(const kernels::KernelTarget& target, const ModelScenario& model,
                                    TF_DataType dtype);

ModelOutcome RunModel(kernels::KernelTarget& target, const ModelScenario& model, TF_DataType dtype,
                      std::uint64_t seed, const ModelRunMode& mode = {});

}  // namespace conformance::models
