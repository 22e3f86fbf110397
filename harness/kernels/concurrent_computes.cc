#include "kernels/concurrent_computes.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/kernel_instance.h"
#include "isolate/in_flight.h"
#include "kernels/dtype_values.h"
#include "runtime/stream_gate.h"
#include "runtime/wait_idle.h"

namespace conformance::kernels {
namespace {

// A computing thread asleep this long waits for the held stream (a kernel that synchronises):
// the hold ends so it can go on. It must outlast compute's own short waits: an output's
// allocation is poisoned through a stream of the allocator's own and waited for, under the
// allocator's lock, which the other computing thread then sleeps on. The limit bounds a kernel
// that spins on its own stream.
constexpr auto kWaitingStreak = std::chrono::milliseconds(100);
constexpr auto kHoldLimit = std::chrono::seconds(2);
// How long outputs that are not right yet are read again (RunMode::settle_for's default).
constexpr auto kSettleFor = std::chrono::milliseconds(300);

// One thread's call: its context, inputs in place, outputs declared.
struct PreparedCall {
  std::unique_ptr<core::KernelContext> ctx;
  std::vector<bool> output_on_host;
};

std::string Prepare(KernelTarget& target, const core::KernelRegistration& kernel,
                    const CaseSpec& spec, PreparedCall& call) {
  const core::DeviceDescriptor device = target.Descriptor();
  call.ctx = std::make_unique<core::KernelContext>(device);
  call.ctx->info().kernel_name = spec.op;
  for (const CaseInput& input : spec.inputs) {
    if (input.variable) return "its case has a variable input";
    const bool host_memory = IsHostMemoryArg(kernel, input.name);
    core::Status status;
    core::Tensor tensor = core::Tensor::Allocate(input.value.dtype, input.value.shape, &status,
                                                 device.AllocatorFor(host_memory), device.name);
    if (!status.ok()) return "allocating input " + input.name + ": " + status.message;
    const std::size_t bytes = input.value.bytes.size();
    if (bytes > 0 && host_memory) {
      std::memcpy(tensor.data(), input.value.bytes.data(), bytes);
    } else if (bytes > 0) {
      const runtime::CallStatus copied = target.stream().MemcpyHtoD(
          runtime::DeviceRange(tensor.data(), bytes, 0), input.value.bytes.data(), bytes);
      if (!copied.ok()) return "memcpy_htod of input " + input.name + ": " + copied.Describe();
    }
    const int index =
        call.ctx->AddInput(std::move(tensor), core::InputOptions{.host_memory = host_memory});
    call.ctx->SetInputRange(input.name, index, index + 1);
  }
  for (const CaseOutputSpec& output : spec.outputs) {
    if (output.variable) return "its case has a variable output";
    call.output_on_host.push_back(IsHostMemoryArg(kernel, output.name));
    call.ctx->AddOutput(output.dtype, call.output_on_host.back());
  }
  return "";
}

std::string ReadOutputs(KernelTarget& target, const PreparedCall& call, Outputs& outputs) {
  for (int o = 0; o < call.ctx->num_outputs(); ++o) {
    const std::optional<core::Tensor>& value = call.ctx->output(o);
    if (!value) {
      outputs.emplace_back();
      continue;
    }
    HostTensor host{value->dtype(), value->shape(), {}};
    host.bytes.resize(DenseBytes(*value));
    if (!host.bytes.empty() && call.output_on_host[static_cast<std::size_t>(o)]) {
      std::memcpy(host.bytes.data(), value->data(), host.bytes.size());
    } else if (!host.bytes.empty()) {
      const runtime::CallStatus copied = target.stream().MemcpyDtoH(
          host.bytes.data(), runtime::DeviceRange(value->data(), host.bytes.size(), 0),
          host.bytes.size());
      if (!copied.ok())
        return "memcpy_dtoh of output " + std::to_string(o) + ": " + copied.Describe();
    }
    outputs.push_back(std::move(host));
  }
  const runtime::CallStatus idle = runtime::WaitIdle(target.stream());
  return idle.ok() ? "" : "waiting for the output copies: " + idle.Describe();
}

}  // namespace

ConcurrentOutcome RunConcurrently(
    KernelTarget& target, const core::KernelRegistration& kernel, const CaseSpec (&cases)[2],
    int rounds, bool hold_stream,
    const std::function<bool(int thread, TF_Code code, const Outputs& outputs)>& accept) {
  ConcurrentOutcome out;
  const core::DeviceDescriptor device = target.Descriptor();
  core::KernelConstruction construction(
      core::NodeDef{.name = cases[0].op, .op = cases[0].op, .attrs = cases[0].attrs}, device);
  std::optional<core::KernelInstance> instance;
  {
    in_flight::PluginCall call("create_func");
    instance.emplace(kernel, construction);
  }
  if (!construction.status().ok()) {
    out.harness_error = "kernel construction failed: " + construction.status().message;
    return out;
  }
  for (int round = 1; round <= rounds && out.failed_round < 0; ++round) {
    PreparedCall calls[2];
    for (int t = 0; t < 2; ++t) {
      if (std::string error = Prepare(target, kernel, cases[t], calls[t]); !error.empty()) {
        out.harness_error = error;
        return out;
      }
    }
    if (runtime::CallStatus idle = runtime::WaitIdle(target.stream()); !idle.ok()) {
      out.harness_error = "waiting for the input copies: " + idle.Describe();
      return out;
    }
    auto gate = std::make_shared<runtime::StreamGate>(kWaitingStreak, kHoldLimit);
    if (hold_stream) {
      auto ticket = target.stream().HostCallback([gate] {
        gate->Hold();
        return runtime::HostCallbackOutcome{};
      });
      if (!ticket.ok()) {
        out.harness_error = "host_callback holding the stream: " + ticket.status().Describe();
        return out;
      }
    }
    // A spinning barrier: neither thread sleeps (which would end the hold) before compute, and
    // both enter it together.
    std::atomic<bool> ready{false}, go{false}, second_done{false};
    std::thread second([&] {
      gate->Watch(gettid());
      ready.store(true);
      while (!go.load()) std::this_thread::yield();
      instance->Compute(*calls[1].ctx);
      second_done.store(true);
    });
    {
      in_flight::PluginCall call("compute_func");
      while (!ready.load()) std::this_thread::yield();
      go.store(true);
      instance->Compute(*calls[0].ctx);
      while (!second_done.load()) std::this_thread::yield();
    }
    gate->Open();
    second.join();
    for (int t = 0; t < 2 && out.failed_round < 0; ++t) {
      Outputs outputs;
      if (std::string error = ReadOutputs(target, calls[t], outputs); !error.empty()) {
        out.harness_error = error;
        return out;
      }
      const core::Status& status = calls[t].ctx->status();
      // A late writer (work finished off the stream) is kernel.<Op>.work_after_compute's
      // finding, not a race: read again with growing pauses before judging, as the cases do.
      auto pause = std::chrono::milliseconds(5);
      for (auto waited = std::chrono::milliseconds(0);
           !accept(t, status.code, outputs) && waited < kSettleFor; waited += pause, pause *= 2) {
        std::this_thread::sleep_for(pause);
        outputs.clear();
        if (std::string error = ReadOutputs(target, calls[t], outputs); !error.empty()) {
          out.harness_error = error;
          return out;
        }
      }
      if (!accept(t, status.code, outputs)) {
        out.failed_round = round;
        out.failed_thread = t;
        out.rejected = std::move(outputs);
        out.code = status.code;
        out.message = status.message;
      }
    }
    out.rounds = round;
    for (PreparedCall& call : calls) ForgetInvalidStrings(*call.ctx);
  }
  // Work the kernel queued must finish before its buffers go back to the plugin.
  if (runtime::CallStatus idle = runtime::WaitIdle(target.stream()); !idle.ok())
    out.harness_error = "waiting for the stream before releasing the buffers: " + idle.Describe();
  in_flight::PluginCall call("delete_func");
  instance.reset();
  out.ran = out.harness_error.empty();
  return out;
}

}  // namespace conformance::kernels
