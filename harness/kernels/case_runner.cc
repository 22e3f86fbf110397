#include "kernels/case_runner.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <thread>

#include "core/kernel_instance.h"
#include "isolate/in_flight.h"
#include "kernels/device_variables.h"
#include "core/string_elements.h"
#include "kernels/dtype_values.h"
#include "kernels/string_values.h"
#include "runtime/stream_gate.h"
#include "runtime/wait_idle.h"

namespace conformance::kernels {

bool IsHostMemoryArg(const core::KernelRegistration& kernel, const std::string& name) {
  return std::find(kernel.host_memory_args.begin(), kernel.host_memory_args.end(), name) !=
         kernel.host_memory_args.end();
}

namespace {

// TensorFlow keeps string tensors in host memory whatever the kernel registers (its memory
// types), so their elements are written and read in place.
bool OnHost(const core::KernelRegistration& kernel, const std::string& name, TF_DataType dtype) {
  return dtype == TF_STRING || IsHostMemoryArg(kernel, name);
}

// A string tensor's elements as the kernel left them (none for other dtypes).
std::vector<std::string> TensorStrings(const core::Tensor& tensor) {
  if (tensor.dtype() != TF_STRING || tensor.data() == nullptr) return {};
  const auto fits = static_cast<std::int64_t>(tensor.ByteSize() / core::StringElementSize());
  return ReadStringElements(tensor.data(), std::min(tensor.NumElements(), fits));
}

}  // namespace

void ForgetInvalidStrings(core::KernelContext& ctx) {
  auto forget = [](const core::Tensor& tensor) {
    if (tensor.dtype() != TF_STRING || tensor.data() == nullptr) return;
    const auto fits = static_cast<std::int64_t>(tensor.ByteSize() / core::StringElementSize());
    ForgetInvalidStringElements(tensor.data(), std::min(tensor.NumElements(), fits));
  };
  for (int i = 0; i < ctx.num_inputs(); ++i) forget(ctx.input_slot(i).tensor);
  for (int o = 0; o < ctx.num_outputs(); ++o)
    if (const std::optional<core::Tensor> value = ctx.output(o)) forget(*value);
}

std::size_t DenseBytes(const core::Tensor& tensor) {
  std::size_t wanted = ElementSize(tensor.dtype());
  for (const std::int64_t d : tensor.shape()) {
    if (d < 0 || __builtin_mul_overflow(wanted, static_cast<std::size_t>(d), &wanted))
      return tensor.ByteSize();
  }
  return std::min(wanted, tensor.ByteSize());
}

namespace {

// The late_inputs gate (runtime/stream_gate.h) ends its hold when compute returns, or once the
// case's thread has slept through a window of this length (a kernel or a copy blocking on the
// held stream; a lock or an allocation is shorter), or at the limit (a kernel that spins on its
// own stream).
constexpr auto kGateWaitingStreak = std::chrono::milliseconds(20);
constexpr auto kGateLimit = std::chrono::seconds(2);
// release_inputs_at_enqueue's hold must outlast compute's own short waits (an output's
// allocation is poisoned through a stream of the allocator's own and waited for).
constexpr auto kReleaseWaitingStreak = std::chrono::milliseconds(100);

struct PlacedInput {
  void* data = nullptr;
  std::size_t bytes = 0;
  bool host_memory = false;
};

// Rewrites the device inputs' bytes in place and waits for the stream.
void WriteInputs(KernelTarget& target, const std::vector<PlacedInput>& placed,
                 const std::vector<const HostTensor*>& values, CaseOutcome& out) {
  runtime::Stream& stream = target.stream();
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const PlacedInput& where = placed[i];
    if (where.bytes == 0 || where.host_memory) continue;
    const runtime::CallStatus status = stream.MemcpyHtoD(
        runtime::DeviceRange(where.data, where.bytes, 0), values[i]->bytes.data(), where.bytes);
    if (!status.ok() && out.harness_error.empty())
      out.harness_error = "memcpy_htod of input " + std::to_string(i) + ": " + status.Describe();
  }
  const runtime::CallStatus status = runtime::WaitIdle(stream);
  if (!status.ok() && out.harness_error.empty())
    out.harness_error = "waiting for the stream after rewriting the inputs: " + status.Describe();
}

// The outputs `ctx` holds, copied to the host once the stream is idle (host-memory outputs
// read in place).
Outputs ReadBack(KernelTarget& target, core::KernelContext& ctx, CaseOutcome& out) {
  runtime::Stream& stream = target.stream();
  auto note = [&](const std::string& what, const runtime::CallStatus& status) {
    if (!status.ok() && out.harness_error.empty())
      out.harness_error = what + ": " + status.Describe();
  };
  note("waiting for the stream after the earlier step", runtime::WaitIdle(stream));
  Outputs outputs(static_cast<std::size_t>(ctx.num_outputs()));
  for (int o = 0; o < ctx.num_outputs(); ++o) {
    const std::optional<core::Tensor> value = ctx.output(o);
    if (!value) continue;
    HostTensor host{value->dtype(), value->shape(), std::vector<std::uint8_t>(DenseBytes(*value))};
    host.strings = TensorStrings(*value);
    if (!host.bytes.empty() && ctx.output_slot(o).host_memory) {
      std::memcpy(host.bytes.data(), value->data(), host.bytes.size());
    } else if (!host.bytes.empty()) {
      note("memcpy_dtoh of the earlier step's output " + std::to_string(o),
           stream.MemcpyDtoH(host.bytes.data(),
                             runtime::DeviceRange(value->data(), host.bytes.size(), 0),
                             host.bytes.size()));
    }
    outputs[static_cast<std::size_t>(o)] = std::move(host);
  }
  note("waiting for the stream after the earlier step's output copies", runtime::WaitIdle(stream));
  return outputs;
}

// RunMode::earlier_step_inputs: one compute of `instance` on the inputs of `step` (the same
// buffers) holding the earlier values, then the case's values written back.
void RunEarlierStep(KernelTarget& target, core::KernelInstance& instance, core::KernelContext& step,
                    const std::vector<PlacedInput>& placed, const CaseSpec& spec,
                    const RunMode& mode, CaseOutcome& out) {
  const core::DeviceDescriptor device = target.Descriptor();
  std::vector<const HostTensor*> earlier, now;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    earlier.push_back(i < mode.earlier_step_inputs.size() ? &mode.earlier_step_inputs[i]
                                                          : &spec.inputs[i].value);
    now.push_back(&spec.inputs[i].value);
  }
  WriteInputs(target, placed, earlier, out);
  {
    core::KernelContext ctx(device);
    ctx.info().kernel_name = spec.op;
    for (int i = 0; i < step.num_inputs(); ++i) {
      const auto& slot = step.input_slot(i);
      const int index = ctx.AddInput(slot.tensor, slot.options);
      ctx.SetInputRange(spec.inputs[static_cast<std::size_t>(i)].name, index, index + 1);
    }
    for (int o = 0; o < step.num_outputs(); ++o)
      ctx.AddOutput(step.output_slot(o).expected_dtype, step.output_slot(o).host_memory);
    {
      in_flight::PluginCall call("compute_func");
      instance.Compute(ctx);
    }
    if (mode.keep_earlier_step_outputs) out.earlier_step_outputs = ReadBack(target, ctx, out);
    ForgetInvalidStrings(ctx);
  }
  WriteInputs(target, placed, now, out);  // waits for the earlier step's work too
}

}  // namespace

CaseOutcome CaseRunner::Run(const core::KernelRegistration& kernel, const CaseSpec& spec,
                            const RunMode& mode) {
  CaseOutcome out;
  runtime::Stream& stream = target_.stream();
  core::Recorder& recorder = core::Recorder::Instance();
  const core::LiveHandles handles_before = recorder.Live();
  const std::int64_t bytes_before = target_.allocator()->live_bytes();
  const core::DeviceDescriptor device = target_.Descriptor();
  auto gate = std::make_shared<runtime::StreamGate>(
      mode.release_inputs_at_enqueue ? kReleaseWaitingStreak : kGateWaitingStreak, kGateLimit);
  auto hold_ran = std::make_shared<std::atomic<bool>>(false);

  auto fail_harness = [&](const std::string& what, const runtime::CallStatus& status) {
    if (!status.ok() && out.harness_error.empty())
      out.harness_error = what + ": " + status.Describe();
  };

  {
    // Declared before the context, so the handles it holds go first.
    DeviceVariables variables;
    std::vector<VariableInit> initial;
    for (const CaseInput& input : spec.inputs) {
      if (input.variable) initial.emplace_back(input.name, &input.value);
    }
    out.harness_error = variables.Create(target_, device, initial);
    if (!out.harness_error.empty()) return out;
    core::KernelContext ctx(device);
    ctx.info().kernel_name = spec.op;
    std::vector<PlacedInput> placed;
    std::vector<core::Tensor> tensors;
    for (const CaseInput& input : spec.inputs) {
      if (input.variable) {  // the handle, in host memory; nothing to copy or watch
        tensors.push_back(variables.Handle(input.name));
        placed.push_back({nullptr, 0, true});
        continue;
      }
      const bool host_memory = OnHost(kernel, input.name, input.value.dtype);
      core::Status status;
      tensors.push_back(core::Tensor::Allocate(input.value.dtype, input.value.shape, &status,
                                               device.AllocatorFor(host_memory), device.name));
      if (!status.ok()) {
        out.harness_error = "allocating input " + input.name + ": " + status.message;
        return out;
      }
      placed.push_back({tensors.back().data(), input.value.bytes.size(), host_memory});
    }
    if (mode.late_inputs) {
      // Poison first, so stale input memory never happens to hold the right bytes (a buffer
      // the plugin hands out again may still contain the previous run's inputs).
      // A copy of 0xFF bytes, not memset: TensorFlow never calls the fills
      // (docs/tensorflow/calls.md), so this path must not depend on them. The source outlives
      // the asynchronous copies (the wait below).
      std::size_t largest = 0;
      for (const PlacedInput& input : placed) largest = std::max(largest, input.bytes);
      const std::vector<std::byte> poison(largest, std::byte{0xFF});
      for (const PlacedInput& input : placed) {
        if (input.bytes == 0 || input.host_memory) continue;
        fail_harness("memcpy_htod poisoning an input",
                     stream.MemcpyHtoD(runtime::DeviceRange(input.data, input.bytes, 0),
                                       poison.data(), input.bytes));
      }
      fail_harness("waiting for the stream after poisoning the inputs", runtime::WaitIdle(stream));
      // The one place the kernel tier holds a stream: TensorFlow has no call for it, so a
      // host_callback that fails or never runs leaves this check unjudged (skipped with the
      // reason), never passed; runtime.callback.* report that host_callback.
      auto ticket = stream.HostCallback([gate, hold_ran] {
        hold_ran->store(true);
        gate->Hold();
        return runtime::HostCallbackOutcome{};
      });
      if (!ticket.ok()) fail_harness("host_callback holding the inputs back", ticket.status());
    }
    for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
      const CaseInput& input = spec.inputs[i];
      const PlacedInput& where = placed[i];
      if (input.value.dtype == TF_STRING && where.data != nullptr) {
        WriteStringElements(input.value.strings, where.data);
      } else if (where.bytes > 0 && where.host_memory) {
        std::memcpy(where.data, input.value.bytes.data(), where.bytes);
      } else if (where.bytes > 0) {
        fail_harness("memcpy_htod of input " + input.name,
                     stream.MemcpyHtoD(runtime::DeviceRange(where.data, where.bytes, 0),
                                       input.value.bytes.data(), where.bytes));
      }
      const int index =
          ctx.AddInput(std::move(tensors[i]),
                       core::InputOptions{.host_memory = where.host_memory, .is_ref = input.ref});
      ctx.SetInputRange(input.name, index, index + 1);
    }
    if (!mode.late_inputs)
      fail_harness("waiting for the stream after the input copies", runtime::WaitIdle(stream));
    for (const CaseOutputSpec& output : spec.outputs) {
      if (!output.variable) ctx.AddOutput(output.dtype, OnHost(kernel, output.name, output.dtype));
    }
    if (mode.fault_hook) ctx.SetApiHook(mode.fault_hook);

    core::KernelConstruction construction(
        core::NodeDef{.name = spec.op, .op = spec.op, .attrs = spec.attrs}, device);
    std::optional<core::KernelInstance> instance;
    {
      in_flight::PluginCall call("create_func");
      instance.emplace(kernel, construction);
    }
    if (!construction.status().ok()) {
      out.construction_failed = true;
      out.code = construction.status().code;
      out.message = construction.status().message;
    } else {
      // An op without inputs (Timestamp) has an earlier step when its outputs are wanted.
      if (!mode.earlier_step_inputs.empty() || mode.keep_earlier_step_outputs) {
        RunEarlierStep(target_, *instance, ctx, placed, spec, mode, out);
        // The case starts from its own values, unless the variables carry over.
        for (std::size_t v = 0; !mode.variables_carry_over && v < initial.size(); ++v) {
          if (const std::string error =
                  variables.Overwrite(target_, initial[v].first, *initial[v].second);
              !error.empty() && out.harness_error.empty())
            out.harness_error = error;
        }
      }
      if (mode.release_inputs_at_enqueue) {
        // The kernel's work queues behind this hold, so the release below always comes first.
        auto ticket = stream.HostCallback([gate, hold_ran] {
          hold_ran->store(true);
          gate->Hold();
          return runtime::HostCallbackOutcome{};
        });
        if (!ticket.ok()) fail_harness("host_callback holding the kernel's work", ticket.status());
      }
      {
        in_flight::PluginCall call("compute_func");
        instance->Compute(ctx);
      }
      if (mode.release_inputs_at_enqueue) {
        // What TensorFlow does next: the inputs' last references drop (a forwarded buffer lives
        // on as the output) and their memory is deallocated without waiting for the stream.
        for (int i = 0; i < ctx.num_inputs(); ++i) ctx.input_slot(i).tensor = core::Tensor();
        target_.allocator()->ReleaseFreedNow();
        out.released_while_held = gate->release() == runtime::StreamGate::Release::kNotHeld;
      }
      gate->Open();
      out.code = ctx.status().code;
      out.message = ctx.status().message;
      if (kernel.is_async) out.async_done_calls = instance->last_done_calls();

      // The case's outputs in its order: the kernel's, and the variables read after compute.
      auto read_outputs = [&](bool queue_before_waiting) {
        Outputs outputs(spec.outputs.size());
        if (!queue_before_waiting)
          fail_harness("waiting for the stream after compute", runtime::WaitIdle(stream));
        int kernel_output = 0;
        for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
          const bool variable = spec.outputs[i].variable;
          const int slot = variable ? -1 : kernel_output++;
          std::optional<core::Tensor> value =
              variable ? std::optional(variables.Value(spec.outputs[i].name)) : ctx.output(slot);
          // A reference input's value after compute is its own tensor, updated in place.
          for (std::size_t in = 0; variable && in < spec.inputs.size(); ++in) {
            if (spec.inputs[in].ref && spec.inputs[in].name == spec.outputs[i].name)
              value = ctx.input_slot(static_cast<int>(in)).tensor;
          }
          if (!value) continue;
          HostTensor host{value->dtype(), value->shape(), {}};
          host.bytes.resize(DenseBytes(*value));
          host.strings = TensorStrings(*value);
          if (!host.bytes.empty() && !variable && ctx.output_slot(slot).host_memory) {
            std::memcpy(host.bytes.data(), value->data(), host.bytes.size());
          } else if (!host.bytes.empty()) {
            fail_harness(
                "memcpy_dtoh of output " + spec.outputs[i].name,
                stream.MemcpyDtoH(host.bytes.data(),
                                  runtime::DeviceRange(value->data(), host.bytes.size(), 0),
                                  host.bytes.size()));
          }
          outputs[i] = std::move(host);
        }
        fail_harness("waiting for the stream after the output copies", runtime::WaitIdle(stream));
        return outputs;
      };
      out.outputs = read_outputs(mode.read_right_after_compute);
      if (mode.accept && !mode.accept(out.outputs)) {
        // A timeout in here says what the unit was waiting for (isolate/in_flight.h).
        const in_flight::Waiting waiting(
            "", "", spec.op + "'s outputs to settle: they differed from the expected ones");
        // Poll with growing pauses (5, 10, 20 ... ms) up to settle_for: a late writer is
        // usually done within a few reads, a wrong result costs the whole budget once.
        auto pause = std::chrono::milliseconds(5);
        for (auto waited = std::chrono::milliseconds(0); waited < mode.settle_for;
             waited += pause, pause *= 2) {
          std::this_thread::sleep_for(pause);
          Outputs again = read_outputs(false);
          if (mode.accept(again)) {
            out.outputs = std::move(again);
            out.settled = true;
            break;
          }
        }
      }

      // Inputs are the kernel's to read, not to write: only a buffer the core granted to an
      // output (TF_ForwardInputOrAllocateOutput, which TensorFlow grants only when nobody else
      // holds the input) is the kernel's. An input set as an output with TF_SetOutput is still
      // the caller's tensor too.
      for (int i = 0; i < ctx.num_inputs() && !mode.release_inputs_at_enqueue; ++i) {
        const PlacedInput& input = placed[static_cast<std::size_t>(i)];
        const HostTensor& given = spec.inputs[static_cast<std::size_t>(i)].value;
        if (given.dtype == TF_STRING && !ctx.input_slot(i).forwarded &&
            TensorStrings(ctx.input_slot(i).tensor) != given.strings) {
          // A string input's elements, rewritten: the caller's strings changed under it.
          HostTensor now{TF_STRING, given.shape, {}};
          now.strings = TensorStrings(ctx.input_slot(i).tensor);
          const auto first =
              static_cast<std::int64_t>(std::mismatch(now.strings.begin(), now.strings.end(),
                                                      given.strings.begin(), given.strings.end())
                                            .first -
                                        now.strings.begin());
          out.changed_inputs.push_back(ChangedInput{.index = i,
                                                    .element = IndexString(given.shape, first),
                                                    .reads = ElementsString(now, first),
                                                    .was = ElementsString(given, first)});
          continue;
        }
        // A reference input is the kernel's to update (ApplyAdam's var).
        if (input.bytes == 0 || ctx.input_slot(i).forwarded ||
            spec.inputs[static_cast<std::size_t>(i)].ref)
          continue;
        const HostTensor& was = spec.inputs[static_cast<std::size_t>(i)].value;
        HostTensor now{was.dtype, was.shape, std::vector<std::uint8_t>(input.bytes)};
        if (input.host_memory) {
          std::memcpy(now.bytes.data(), input.data, input.bytes);
        } else {
          fail_harness(
              "memcpy_dtoh of input " + std::to_string(i),
              stream.MemcpyDtoH(now.bytes.data(), runtime::DeviceRange(input.data, input.bytes, 0),
                                input.bytes));
          fail_harness("waiting for the stream after reading inputs back",
                       runtime::WaitIdle(stream));
        }
        if (now.bytes == was.bytes) continue;
        out.changed_inputs.push_back(ChangedInput{.index = i});
        ChangedInput& changed = out.changed_inputs.back();
        for (int o = 0; o < ctx.num_outputs() && changed.set_as_output < 0; ++o) {
          if (ctx.output(o) && ctx.output(o)->SharesBufferWith(ctx.input_slot(i).tensor))
            changed.set_as_output = o;
        }
        const std::size_t element_size = std::max<std::size_t>(ElementSize(was.dtype), 1);
        const auto first_byte = static_cast<std::size_t>(
            std::mismatch(now.bytes.begin(), now.bytes.end(), was.bytes.begin()).first -
            now.bytes.begin());
        const auto first = static_cast<std::int64_t>(first_byte / element_size);
        changed.element = IndexString(was.shape, first);
        changed.reads = ElementsString(now, first);
        changed.was = ElementsString(was, first);
      }
    }
    gate->Open();
    if (mode.late_inputs) out.stream_hold_release = runtime::ReleaseName(gate->release());
    if ((mode.late_inputs || mode.release_inputs_at_enqueue) && !hold_ran->load())
      fail_harness("holding the inputs back", runtime::CallStatus(runtime::Error{
                                                  runtime::ErrorKind::kReturnedFalse,
                                                  "SP_StreamExecutor.host_callback", TF_INTERNAL,
                                                  "the host_callback holding the inputs back never "
                                                  "ran, so nothing was held"}));
    // Work the kernel queued must finish before its buffers go back to the plugin.
    fail_harness("waiting for the stream before releasing the buffers", runtime::WaitIdle(stream));
    ForgetInvalidStrings(ctx);
    in_flight::PluginCall call("delete_func");
    instance.reset();
  }
  out.overwritten_guards = target_.allocator()->ReleaseFreed();
  const core::LiveHandles handles_after = recorder.Live();
  out.leaked_tensors = handles_after.tensors - handles_before.tensors;
  out.leaked_statuses = handles_after.statuses - handles_before.statuses;
  out.leaked_device_bytes = target_.allocator()->live_bytes() - bytes_before;
  out.ran = out.harness_error.empty();
  return out;
}

}  // namespace conformance::kernels
