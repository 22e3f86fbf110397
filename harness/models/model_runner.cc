#include "models/model_runner.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "core/kernel_instance.h"
#include "core/recorder.h"
#include "isolate/in_flight.h"
#include "kernels/dtype_values.h"
#include "models/model_variables.h"
#include "models/reusing_allocator.h"
#include "ops/catalogue.h"
#include "runtime/copy_hold.h"
#include "runtime/stream_gate.h"
#include "runtime/wait_idle.h"

namespace conformance::models {
namespace {

using kernels::HostTensor;

// As the kernel tier's late_inputs gate (kernels/case_runner.cc): the hold ends when the last
// held compute returns, or once the run's thread has slept through this window (a kernel that
// synchronises its own stream), or at the limit.
constexpr auto kGateWaitingStreak = std::chrono::milliseconds(20);
constexpr auto kGateLimit = std::chrono::seconds(2);

// What TensorFlow's executor knows about a node before it runs: its kernel, its NodeDef's
// attrs (type attrs inferred from the input tensors, defaults added) and where its arguments
// live.
struct NodePlan {
  const core::KernelRegistration* kernel = nullptr;
  core::AttrMap attrs;
  std::vector<std::string> input_args;
  std::vector<bool> input_host;
  std::vector<bool> input_resource;  // a DT_RESOURCE argument: fed the variable's handle
  std::vector<TF_DataType> output_dtypes;
  std::vector<bool> output_host;
};

bool IsHostMemoryArg(const core::KernelRegistration& kernel, const std::string& name) {
  return std::find(kernel.host_memory_args.begin(), kernel.host_memory_args.end(), name) !=
         kernel.host_memory_args.end();
}

TF_DataType TypeOf(const ops::ArgDef& arg, const core::AttrMap& attrs, TF_DataType fallback) {
  if (arg.type) return *arg.type;
  if (auto it = attrs.find(arg.type_attr); it != attrs.end()) {
    if (const auto* dtype = std::get_if<TF_DataType>(&it->second)) return *dtype;
  }
  return fallback;
}

// One plan per node; kernel stays nullptr for a node the plugin has no kernel for.
std::vector<NodePlan> Plan(const kernels::KernelTarget& target, const ModelScenario& model,
                           TF_DataType dtype) {
  std::map<std::string, TF_DataType> tensor_dtype;
  for (const ModelInput& input : model.inputs)
    tensor_dtype[input.name] = input.dtype.value_or(dtype);
  for (const ModelInput& variable : model.variables)
    tensor_dtype[variable.name] = variable.dtype.value_or(dtype);
  std::vector<NodePlan> plans;
  for (const ModelNode& node : model.nodes) {
    NodePlan plan;
    const ops::OpDef* def = ops::FindOp(node.op);  // the parser made sure it exists
    plan.attrs = core::AttrMap(node.attrs.begin(), node.attrs.end());
    plan.attrs[node.type_attr] = dtype;
    for (std::size_t i = 0; i < def->inputs.size() && i < node.inputs.size(); ++i) {
      const ops::ArgDef& arg = def->inputs[i];
      plan.input_args.push_back(arg.name);
      plan.input_resource.push_back(arg.type == TF_RESOURCE);
      if (!arg.type_attr.empty())
        plan.attrs.try_emplace(arg.type_attr, tensor_dtype[node.inputs[i]]);
    }
    // TensorFlow adds the op definition's defaults to the NodeDef before building the kernel.
    for (const ops::AttrDef& attr : def->attrs) {
      if (!std::holds_alternative<core::AttrNotSet>(attr.default_value))
        plan.attrs.try_emplace(attr.name, attr.default_value);
    }
    for (std::size_t o = 0; o < def->outputs.size() && o < node.outputs.size(); ++o) {
      plan.output_dtypes.push_back(TypeOf(def->outputs[o], plan.attrs, dtype));
      tensor_dtype[node.outputs[o]] = plan.output_dtypes.back();
    }
    plan.kernel = target.FindKernel(node.op, plan.attrs);
    // A resource handle is a host tensor whatever the registration says, as in TensorFlow.
    for (std::size_t i = 0; i < plan.input_args.size(); ++i) {
      plan.input_host.push_back(
          plan.input_resource[i] ||
          (plan.kernel != nullptr && IsHostMemoryArg(*plan.kernel, plan.input_args[i])));
    }
    for (const ops::ArgDef& arg : def->outputs)
      plan.output_host.push_back(plan.kernel != nullptr && IsHostMemoryArg(*plan.kernel, arg.name));
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::size_t DenseBytes(const core::Tensor& tensor) {
  const std::size_t wanted =
      static_cast<std::size_t>(tensor.NumElements()) * kernels::ElementSize(tensor.dtype());
  return std::min(wanted, tensor.ByteSize());
}

class StepRunner {
 public:
  StepRunner(kernels::KernelTarget& target, const ModelScenario& model,
             const std::vector<NodePlan>& plans, const core::DeviceDescriptor& device,
             const ModelVariables& variables, const ModelRunMode& mode, ModelOutcome& out)
      : target_(target),
        model_(model),
        plans_(plans),
        device_(device),
        variables_(variables),
        mode_(mode),
        out_(out) {
    // A handle is not a use of the variable's value; a variable among the model's outputs is
    // read from the variable after the step, not kept from its start. A variable's value read
    // after the step's k-th update of it is a read of its own ("w1@k"), with its own consumers.
    std::map<std::string, int> updates;
    value_keys_.resize(model.nodes.size());
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
      const ModelNode& node = model.nodes[n];
      for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const std::string& name = node.inputs[i];
        const bool updated = model.FindVariable(name) != nullptr && updates[name] > 0;
        value_keys_[n].push_back(updated ? name + "@" + std::to_string(updates[name]) : name);
        if (plans[n].input_resource[i]) continue;
        if (updated) reread_[value_keys_[n].back()] = name;
        ++consumers_[value_keys_[n].back()];
      }
      for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        if (plans[n].input_resource[i]) ++updates[node.inputs[i]];
      }
    }
    for (const std::string& name : model.outputs) {
      if (model.FindVariable(name) == nullptr) ++consumers_[name];
    }
    for (const ModelInput& input : model.inputs) {
      for (const NodePlan* plan = plans.data(); const ModelNode& node : model.nodes) {
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
          if (node.inputs[i] == input.name && plan->input_host[i]) host_inputs_.insert(input.name);
        }
        ++plan;
      }
    }
  }

  void Run(std::vector<std::unique_ptr<core::KernelInstance>>& instances, int step,
           const std::vector<HostTensor>& inputs) {
    step_ = step;
    remaining_ = consumers_;
    StepOutputs result;
    PlaceInputs(inputs);
    ReadVariables();
    const bool chained = mode_.kind == ModelRunMode::Kind::kChained;
    if (!chained) Sync("waiting for the stream after the input copies");
    if (chained) HoldStream();
    result.node_outputs.resize(model_.nodes.size());
    result.node_variables_before.resize(model_.nodes.size());
    result.node_buffers.resize(model_.nodes.size());
    for (std::size_t i = 0; i < model_.nodes.size() && out_.ran(); ++i) {
      if (mode_.kind == ModelRunMode::Kind::kWindow && i == mode_.window_first) HoldStream();
      RunNode(i, *instances[i], result);
    }
    OpenHold();
    if (out_.ran()) result.outputs = ReadOutputs();
    for (Probe& probe : probes_) {
      const core::Tensor& copy = probe.copy;
      result.probes.push_back(
          {probe.node, probe.tensor,
           HostTensor{copy.dtype(), copy.shape(), ReadBack(copy, probe.host, probe.tensor)}});
    }
    probes_.clear();
    live_.clear();
    known_.clear();
    out_.steps.push_back(std::move(result));
  }

 private:
  void Note(const std::string& what, const runtime::CallStatus& status) {
    if (!status.ok() && out_.harness_error.empty())
      out_.harness_error = what + ": " + status.Describe();
  }
  // TensorFlow's wait (runtime/wait_idle.h): an event polled, then synchronize_all_activity;
  // never block_host_until_done, which TensorFlow 2.21 does not call.
  void Sync(const std::string& what) { Note(what, runtime::WaitIdle(target_.stream())); }

  // Keeps the device behind the host until OpenHold (see the header), with calls TensorFlow
  // makes: a memcpy_htod whose source faults until the hold opens (runtime/copy_hold.h), into
  // a byte of the harness's own (not from the model's allocator: the hold must not move the
  // model's buffers). Only a device whose memcpy_htod is synchronous (the copy cannot hold its
  // stream), or a kernel refusing userfaultfd, is held by a host callback instead.
  void HoldStream() {
    copy_hold_ = std::make_unique<runtime::CopyHold>(kGateWaitingStreak, kGateLimit);
    if (copy_hold_->available()) {
      if (hold_target_.data() == nullptr) {
        core::Status status;
        hold_target_ = core::Tensor::Allocate(
            TF_UINT8, {static_cast<std::int64_t>(runtime::CopyHold::kSourceBytes)}, &status,
            target_.allocator(), device_.name);
        if (!status.ok()) {
          if (out_.harness_error.empty())
            out_.harness_error = "allocating the stream hold's byte: " + status.message;
          return;
        }
      }
      Note("memcpy_htod holding the stream",
           target_.stream().MemcpyHtoD(
               runtime::DeviceRange(hold_target_.data(), runtime::CopyHold::kSourceBytes, 0),
               copy_hold_->source(), runtime::CopyHold::kSourceBytes));
      // Still holding (or queued): the device copies asynchronously, and the hold stands.
      // Released already: memcpy_htod ran the copy on this thread or waited for it (a device
      // whose copies are synchronous), so no copy can keep its stream behind the host.
      if (copy_hold_->release() == runtime::StreamGate::Release::kNotHeld) return;
    }
    copy_hold_.reset();
    gate_ = std::make_shared<runtime::StreamGate>(kGateWaitingStreak, kGateLimit);
    auto ticket = target_.stream().HostCallback([gate = gate_] {
      gate->Hold();
      return runtime::HostCallbackOutcome{};
    });
    if (!ticket.ok()) Note("host_callback holding the stream", ticket.status());
  }

  void OpenHold() {
    if (copy_hold_) copy_hold_->Open();
    if (gate_) gate_->Open();
  }

  void PlaceInputs(const std::vector<HostTensor>& inputs) {
    for (std::size_t i = 0; i < model_.inputs.size(); ++i) {
      const ModelInput& spec = model_.inputs[i];
      const HostTensor& value = inputs[i];
      const bool host = host_inputs_.contains(spec.name);
      core::Status status;
      core::Tensor tensor = core::Tensor::Allocate(value.dtype, value.shape, &status,
                                                   device_.AllocatorFor(host), device_.name);
      if (!status.ok()) {
        out_.harness_error = "allocating input " + spec.name + ": " + status.message;
        return;
      }
      if (!value.bytes.empty() && host) {
        std::memcpy(tensor.data(), value.bytes.data(), value.bytes.size());
      } else if (!value.bytes.empty()) {
        // The host bytes live in the caller's vector until the step has been read back.
        Note("memcpy_htod of input " + spec.name,
             target_.stream().MemcpyHtoD(runtime::DeviceRange(tensor.data(), value.bytes.size(), 0),
                                         value.bytes.data(), value.bytes.size()));
      }
      known_[spec.name] = value.bytes;
      if (consumers_[spec.name] > 0) live_[spec.name] = std::move(tensor);
    }
  }

  // ReadVariableOp at the start of the step, for the nodes that use a variable's value: the
  // tensor shares the variable's buffer until its last consumer, so an update before then
  // copies first (TF_GetInputTensorFromVariable), as in TensorFlow.
  void ReadVariables() {
    for (const ModelInput& variable : model_.variables) {
      if (consumers_[variable.name] == 0) continue;
      live_[variable.name] = variables_.Value(variable.name);
      if (mode_.kind != ModelRunMode::Kind::kChained)
        known_[variable.name] = ReadBack(live_[variable.name], false, variable.name);
    }
  }

  // ReadVariableOp again, just before the first reader after an update in this step.
  void RereadVariable(const std::string& key) {
    const auto it = reread_.find(key);
    if (it == reread_.end() || live_.contains(key)) return;
    live_[key] = variables_.Value(it->second);
    if (mode_.kind == ModelRunMode::Kind::kSequential)
      known_[key] = ReadBack(live_[key], false, it->second);
  }

  // Probe mode: queues a copy of `tensor` (node `i`'s input `name`) on the stream, so that it
  // holds, once the stream gets there, what the node is about to read.
  void ProbeInput(std::size_t i, const std::string& name, const core::Tensor& tensor, bool host) {
    // Not from the model's reusing allocator: a probe must not move the model's buffers.
    const std::shared_ptr<core::MemoryAllocator> allocator =
        host ? core::HostAllocator() : std::shared_ptr<core::MemoryAllocator>(target_.allocator());
    core::Status status;
    Probe probe{
        i, name,
        core::Tensor::Allocate(tensor.dtype(), tensor.shape(), &status, allocator, device_.name),
        host};
    if (!status.ok()) {
      if (out_.harness_error.empty())
        out_.harness_error = "allocating a probe of " + name + ": " + status.message;
      return;
    }
    const std::size_t bytes = DenseBytes(tensor);
    if (bytes > 0 && host) {
      std::memcpy(probe.copy.data(), tensor.data(), bytes);
    } else if (bytes > 0) {
      Note("memcpy_dtod probing " + name,
           target_.stream().MemcpyDtoD(runtime::DeviceRange(probe.copy.data(), bytes, 0),
                                       runtime::DeviceRange(tensor.data(), bytes, 0), bytes));
    }
    probes_.push_back(std::move(probe));
  }

  // Probe mode: before a node that updates variables, the variables and the update's other
  // inputs; before a node reading a variable the step updated, that variable's value.
  void ProbeNode(std::size_t i, core::KernelContext& ctx) {
    const ModelNode& node = model_.nodes[i];
    const bool updates = std::find(plans_[i].input_resource.begin(), plans_[i].input_resource.end(),
                                   true) != plans_[i].input_resource.end();
    for (std::size_t j = 0; j < node.inputs.size(); ++j) {
      const std::string& name = node.inputs[j];
      if (plans_[i].input_resource[j]) {
        ProbeInput(i, name, variables_.Value(name), false);
      } else if (updates || reread_.contains(value_keys_[i][j])) {
        ProbeInput(i, name, ctx.input_slot(static_cast<int>(j)).tensor, plans_[i].input_host[j]);
      }
    }
  }

  // Sequential mode: the values of the variables node `i` updates, read now.
  std::vector<HostTensor> ReadUpdatedVariables(std::size_t i) {
    std::vector<HostTensor> values;
    const ModelNode& node = model_.nodes[i];
    for (std::size_t j = 0; j < node.inputs.size(); ++j) {
      if (!plans_[i].input_resource[j]) continue;
      const core::Tensor value = variables_.Value(node.inputs[j]);
      values.push_back({value.dtype(), value.shape(), ReadBack(value, false, node.inputs[j])});
    }
    return values;
  }

  // Copies a tensor to the host and waits for the copy (the bytes are used at once).
  std::vector<std::uint8_t> ReadBack(const core::Tensor& tensor, bool host,
                                     const std::string& what) {
    std::vector<std::uint8_t> bytes(DenseBytes(tensor));
    if (bytes.empty()) return bytes;
    if (host) {
      std::memcpy(bytes.data(), tensor.data(), bytes.size());
    } else {
      Note("memcpy_dtoh of " + what,
           target_.stream().MemcpyDtoH(
               bytes.data(), runtime::DeviceRange(tensor.data(), bytes.size(), 0), bytes.size()));
      Sync("waiting for the stream after reading " + what + " back");
    }
    return bytes;
  }

  bool ReadsAfterNode(std::size_t i) const {
    switch (mode_.kind) {
      case ModelRunMode::Kind::kChained: return false;
      case ModelRunMode::Kind::kSequential: return true;
      case ModelRunMode::Kind::kWindow: return i < mode_.window_first || i >= mode_.window_last;
    }
    return false;
  }

  void RunNode(std::size_t i, core::KernelInstance& instance, StepOutputs& result) {
    const ModelNode& node = model_.nodes[i];
    const NodePlan& plan = plans_[i];
    core::KernelContext ctx(device_);
    ctx.info().kernel_name = node.name;
    ctx.info().step_id = step_;
    const bool sequential = mode_.kind == ModelRunMode::Kind::kSequential;
    if (sequential) result.node_variables_before[i] = ReadUpdatedVariables(i);
    for (std::size_t j = 0; j < node.inputs.size(); ++j) {
      const std::string& name = node.inputs[j];
      const std::string& key = value_keys_[i][j];
      core::Tensor tensor;
      if (!plan.input_resource[j]) RereadVariable(key);
      // The last consumer gets the tensor unshared: TensorFlow lets it forward the buffer.
      if (plan.input_resource[j]) {
        tensor = variables_.Handle(name);
      } else if (--remaining_[key] == 0) {
        tensor = std::move(live_[key]);
        live_.erase(key);
      } else {
        tensor = live_[key];
      }
      const int index =
          ctx.AddInput(std::move(tensor), core::InputOptions{.host_memory = plan.input_host[j]});
      ctx.SetInputRange(plan.input_args[j], index, index + 1);
    }
    for (std::size_t o = 0; o < plan.output_dtypes.size(); ++o)
      ctx.AddOutput(plan.output_dtypes[o], plan.output_host[o]);
    if (mode_.probe_variables && mode_.kind == ModelRunMode::Kind::kChained) ProbeNode(i, ctx);
    {
      in_flight::PluginCall call("compute_func");
      instance.Compute(ctx);
    }
    if (mode_.kind == ModelRunMode::Kind::kWindow && i == mode_.window_last) OpenHold();
    auto& buffers = result.node_buffers[i];
    for (int j = 0; j < ctx.num_inputs(); ++j)
      buffers.push_back(reinterpret_cast<std::uintptr_t>(ctx.input_slot(j).tensor.data()));
    for (int o = 0; o < ctx.num_outputs(); ++o)
      buffers.push_back(
          reinterpret_cast<std::uintptr_t>(ctx.output(o) ? ctx.output(o)->data() : nullptr));
    if (!ctx.status().ok()) {
      out_.failure = NodeFailure{i, "compute_func", "compute failed",
                                 "compute failed: " + ctx.status().message, step_};
      return;
    }
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
      if (!ctx.output(static_cast<int>(o))) {
        out_.failure = NodeFailure{i, "compute_func", "output never set",
                                   "output '" + node.outputs[o] + "' was never set", step_};
        return;
      }
      if (consumers_[node.outputs[o]] > 0)
        live_[node.outputs[o]] = *ctx.output(static_cast<int>(o));
    }
    if (!ReadsAfterNode(i)) return;
    Sync("waiting for the stream after node " + node.name);
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
      const core::Tensor& value = *ctx.output(static_cast<int>(o));
      HostTensor host{value.dtype(), value.shape(),
                      ReadBack(value, plan.output_host[o], node.outputs[o])};
      known_[node.outputs[o]] = host.bytes;
      result.node_outputs[i].push_back(std::move(host));
    }
    // A node's results include the variables it updated (NodeResultNames).
    for (HostTensor& value : ReadUpdatedVariables(i))
      result.node_outputs[i].push_back(std::move(value));
    if (sequential) CheckInputsKept(i, ctx);
  }

  // A tensor that is still live after the node (a later node or the model's output needs it)
  // was not the node's to write, forwarded or not: the core forwards only unshared buffers.
  void CheckInputsKept(std::size_t i, core::KernelContext& ctx) {
    if (out_.corrupted) return;
    const ModelNode& node = model_.nodes[i];
    for (std::size_t j = 0; j < node.inputs.size(); ++j) {
      const std::string& name = node.inputs[j];
      const std::string& key = value_keys_[i][j];
      if (plans_[i].input_resource[j]) continue;  // the handle, not the value
      if (!live_.contains(key) || !known_.contains(key)) continue;
      const auto now =
          ReadBack(ctx.input_slot(static_cast<int>(j)).tensor, plans_[i].input_host[j], name);
      if (now != known_[key]) {
        out_.corrupted = CorruptedInput{i, name, step_};
        return;
      }
    }
  }

  std::vector<HostTensor> ReadOutputs() {
    std::vector<HostTensor> outputs;
    for (const std::string& name : model_.outputs) {
      if (model_.FindVariable(name) != nullptr) {
        const core::Tensor value = variables_.Value(name);
        outputs.push_back({value.dtype(), value.shape(), ReadBack(value, false, name)});
        continue;
      }
      const core::Tensor& tensor = live_.at(name);
      bool host = false;
      for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
        const auto& outs = model_.nodes[i].outputs;
        if (auto it = std::find(outs.begin(), outs.end(), name); it != outs.end())
          host = plans_[i].output_host[static_cast<std::size_t>(it - outs.begin())];
      }
      outputs.push_back({tensor.dtype(), tensor.shape(), ReadBack(tensor, host, name)});
    }
    return outputs;
  }

  kernels::KernelTarget& target_;
  const ModelScenario& model_;
  const std::vector<NodePlan>& plans_;
  const core::DeviceDescriptor& device_;
  const ModelVariables& variables_;
  const ModelRunMode& mode_;
  ModelOutcome& out_;
  int step_ = 0;
  // Per node and input: the live tensor it reads (its name, or "w1@k" for a variable re-read).
  std::vector<std::vector<std::string>> value_keys_;
  std::map<std::string, std::string> reread_;  // "w1@k" -> "w1"
  struct Probe {
    std::size_t node = 0;
    std::string tensor;
    core::Tensor copy;
    bool host = false;
  };
  std::vector<Probe> probes_;
  std::map<std::string, int> consumers_, remaining_;
  std::set<std::string> host_inputs_;
  std::map<std::string, core::Tensor> live_;
  std::map<std::string, std::vector<std::uint8_t>> known_;  // bytes when produced
  std::shared_ptr<runtime::StreamGate> gate_;  // the host-callback hold, without userfaultfd
  std::unique_ptr<runtime::CopyHold> copy_hold_;
  core::Tensor hold_target_;  // the byte the hold's copy writes
};

}  // namespace

std::vector<HostTensor> StepInputs(const ModelScenario& model, TF_DataType dtype, int step,
                                   std::uint64_t seed) {
  std::vector<HostTensor> inputs;
  const std::string id = ModelCheckId(model.name, dtype);
  for (std::size_t i = 0; i < model.inputs.size(); ++i) {
    const ModelInput& input = model.inputs[i];
    const std::uint64_t input_seed =
        kernels::InputSeed(seed, id, static_cast<std::size_t>(step), i, input.fill.seed_offset);
    inputs.push_back(
        kernels::MakeInput(input.fill, input.dtype.value_or(dtype), input.shape, input_seed));
  }
  return inputs;
}

std::vector<std::string> NodeResultNames(const ModelScenario& model, std::size_t node) {
  const ModelNode& n = model.nodes[node];
  std::vector<std::string> names = n.outputs;
  const ops::OpDef* def = ops::FindOp(n.op);
  for (std::size_t i = 0; def != nullptr && i < n.inputs.size() && i < def->inputs.size(); ++i) {
    if (def->inputs[i].type == TF_RESOURCE) names.push_back(n.inputs[i]);
  }
  return names;
}

std::vector<std::string> MissingOps(const kernels::KernelTarget& target, const ModelScenario& model,
                                    TF_DataType dtype) {
  std::vector<std::string> missing;
  const std::vector<NodePlan> plans = Plan(target, model, dtype);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::string& op = model.nodes[i].op;
    if (plans[i].kernel == nullptr &&
        std::find(missing.begin(), missing.end(), op) == missing.end())
      missing.push_back(op);
  }
  return missing;
}

ModelOutcome RunModel(kernels::KernelTarget& target, const ModelScenario& model, TF_DataType dtype,
                      std::uint64_t seed, const ModelRunMode& mode) {
  ModelOutcome out;
  core::Recorder& recorder = core::Recorder::Instance();
  const core::LiveHandles handles_before = recorder.Live();
  const std::int64_t bytes_before = target.allocator()->live_bytes();
  const std::vector<NodePlan> plans = Plan(target, model, dtype);
  // TensorFlow's lifetimes in the run that stands for TensorFlow's (chained); the oracles free
  // in stream order, so what they compute does not depend on the plugin's deallocate.
  const bool tensorflow_frees =
      mode.kind == ModelRunMode::Kind::kChained && !mode.defer_release && !target.uses_bfc();
  auto reusing = std::make_shared<ReusingAllocator>(
      target.allocator(),
      tensorflow_frees ? ReusingAllocator::Reuse::kNone : ReusingAllocator::Reuse::kLikeBfc);
  const core::DeviceDescriptor device =
      core::DeviceDescriptor::Pluggable(target.device_type(), target.stream().get(), 0, reusing);
  ModelVariables variables;
  {
    out.harness_error = variables.Create(target, device, model, dtype, seed);
    std::vector<std::unique_ptr<core::KernelConstruction>> constructions;
    std::vector<std::unique_ptr<core::KernelInstance>> instances;
    for (std::size_t i = 0; i < model.nodes.size() && out.ran(); ++i) {
      const ModelNode& node = model.nodes[i];
      if (plans[i].kernel == nullptr) {  // callers check MissingOps first
        out.harness_error = "no " + node.op + " kernel registered for node " + node.name;
        break;
      }
      constructions.push_back(std::make_unique<core::KernelConstruction>(
          core::NodeDef{.name = node.name, .op = node.op, .attrs = plans[i].attrs}, device));
      {
        in_flight::PluginCall call("create_func");
        instances.push_back(
            std::make_unique<core::KernelInstance>(*plans[i].kernel, *constructions[i]));
      }
      if (!constructions[i]->status().ok()) {
        out.failure =
            NodeFailure{i, "create_func", "kernel construction failed",
                        "kernel construction failed: " + constructions[i]->status().message};
        break;
      }
    }
    StepRunner steps(target, model, plans, device, variables, mode, out);
    // A step's host inputs outlive it: a step that fails at a node returns before reading back,
    // with their memcpy_htod possibly still queued, so they are freed only after the wait below.
    std::vector<HostTensor> inputs;
    for (int step = 0; step < model.steps && out.ran(); ++step) {
      inputs = StepInputs(model, dtype, step, seed);
      steps.Run(instances, step, inputs);
    }
    // Work the kernels queued must finish before their buffers and kernels go away.
    if (const auto status = runtime::WaitIdle(target.stream());
        !status.ok() && out.harness_error.empty())
      out.harness_error = "waiting for the stream at the end of the model: " + status.Describe();
    in_flight::PluginCall call("delete_func");
    instances.clear();
  }
  variables.DestroyAll();
  reusing->Drain();
  (void)target.allocator()->ReleaseFreed();
  const core::LiveHandles handles_after = recorder.Live();
  out.leaked_tensors = handles_after.tensors - handles_before.tensors;
  out.leaked_statuses = handles_after.statuses - handles_before.statuses;
  out.leaked_device_bytes = target.allocator()->live_bytes() - bytes_before;
  return out;
}

}  // namespace conformance::models
