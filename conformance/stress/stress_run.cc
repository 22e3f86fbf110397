#include "stress_run.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "check_support.h"

namespace conformance::stress {
namespace {

using runtime::CallStatus;

struct Shared {
  const Plan& plan;
  std::vector<runtime::DeviceBuffer>& slots;
  std::vector<runtime::Stream>& streams;
  std::vector<runtime::Event>& events;
  std::vector<std::vector<std::byte>>& reads;  // per op (kRead only)
  std::unique_ptr<std::atomic<bool>[]> issued;
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> accepted{0};  // operations issued without an error
  std::mutex mutex;
  std::string first_error;
  std::vector<runtime::HostCallbackTicket> tickets;  // per op (kCallback only)
  // Per stream, the callback op indices in the order they ran; shared with the callbacks.
  std::shared_ptr<std::pair<std::mutex, std::vector<std::vector<std::size_t>>>> ran;
};

CallStatus Issue(Shared& shared, std::size_t index) {
  const Op& op = shared.plan.ops[index];
  runtime::Stream& stream = shared.streams[op.stream];
  const runtime::DeviceBuffer& slot = shared.slots[op.slot];
  switch (op.kind) {
    case OpKind::kWrite:
      return stream.MemcpyHtoD(slot.Range(op.offset, op.size), op.source.data(), op.size);
    case OpKind::kCopy:
      return stream.MemcpyDtoD(shared.slots[op.other_slot].Range(op.other_offset, op.size),
                               slot.Range(op.offset, op.size), op.size);
    case OpKind::kMemset:
      return stream.Memset(slot.Range(op.offset, op.size), static_cast<std::uint8_t>(op.pattern),
                           op.size);
    case OpKind::kMemset32:
      return stream.Memset32(slot.Range(op.offset, op.size), op.pattern, op.size);
    case OpKind::kZero: return stream.MemZero(slot.Range(op.offset, op.size), op.size);
    case OpKind::kRead:
      return stream.MemcpyDtoH(shared.reads[index].data(), slot.Range(op.offset, op.size), op.size);
    case OpKind::kCallback: {
      auto ran = shared.ran;
      const int on = op.stream;
      auto ticket = stream.HostCallback([ran, on, index] {
        std::lock_guard lock(ran->first);
        ran->second[on].push_back(index);
        return runtime::HostCallbackOutcome{};
      });
      if (!ticket.ok()) return ticket.error();
      std::lock_guard lock(shared.mutex);
      shared.tickets[index] = ticket.value();
      return CallStatus::Ok();
    }
    case OpKind::kRecord: return stream.Record(shared.events[op.event]);
    case OpKind::kWaitEvent: return stream.WaitFor(shared.events[op.event]);
    case OpKind::kDependOn: return stream.WaitFor(shared.streams[op.other_stream]);
  }
  return CallStatus::Ok();
}

void IssueStreams(Shared& shared, int thread, int threads) {
  const auto& ops = shared.plan.ops;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.stream % threads != thread) continue;
    if (op.kind == OpKind::kWaitEvent || op.kind == OpKind::kDependOn) {
      // Host-side order: the other stream must have issued what this hand-over waits for.
      while (!shared.issued[op.depends_on].load(std::memory_order_acquire) && !shared.stop.load()) {
        std::this_thread::yield();
      }
    }
    if (!shared.stop.load()) {
      if (CallStatus status = Issue(shared, i); status.ok()) {
        shared.accepted.fetch_add(1, std::memory_order_relaxed);
      } else {
        std::lock_guard lock(shared.mutex);
        if (shared.first_error.empty()) {
          shared.first_error = "op " + std::to_string(i) + " (" + OpKindName(op.kind) +
                               " on stream " + std::to_string(op.stream) +
                               "): " + status.Describe();
        }
        shared.stop.store(true);
      }
    }
    shared.issued[i].store(true, std::memory_order_release);
  }
}

}  // namespace

StressOutcome RunPlan(runtime::Device& device, const Plan& plan, int threads) {
  StressOutcome outcome;
  const auto started = std::chrono::steady_clock::now();
  // Host memory first: the streams (destroyed first) drain before it goes away.
  std::vector<std::vector<std::byte>> reads(plan.ops.size());
  for (std::size_t i = 0; i < plan.ops.size(); ++i) {
    if (plan.ops[i].kind == OpKind::kRead) reads[i].assign(plan.ops[i].size, std::byte{0xEE});
  }
  std::vector<std::vector<std::byte>> finals(
      plan.shape.slots, std::vector<std::byte>(plan.shape.slot_bytes, std::byte{0xEE}));
  std::vector<runtime::DeviceBuffer> slots;
  std::vector<runtime::Event> events;
  std::vector<runtime::Stream> streams;
  auto fail = [&](const std::string& what, const runtime::Error& error) {
    outcome.call_error = what + ": " + error.Describe();
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;  // before any plan operation: operations_issued stays 0
  };
  for (int i = 0; i < plan.shape.slots; ++i) {
    auto slot = device.Allocate(plan.shape.slot_bytes);
    if (!slot.ok()) return fail("allocate", slot.error());
    slots.push_back(std::move(slot.value()));
  }
  for (int i = 0; i < plan.events; ++i) {
    auto event = device.CreateEvent();
    if (!event.ok()) return fail("create_event", event.error());
    events.push_back(std::move(event.value()));
  }
  for (int i = 0; i < plan.shape.streams; ++i) {
    auto stream = device.CreateStream();
    if (!stream.ok()) return fail("create_stream", stream.error());
    streams.push_back(std::move(stream.value()));
  }

  Shared shared{
      plan, slots, streams, events, reads, std::make_unique<std::atomic<bool>[]>(plan.ops.size()),
      {},   {},    {},      {},     {},    {}};
  shared.tickets.assign(plan.ops.size(), 0);
  shared.ran = std::make_shared<std::pair<std::mutex, std::vector<std::vector<std::size_t>>>>();
  shared.ran->second.resize(plan.shape.streams);
  {
    std::vector<std::thread> workers;
    workers.reserve(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&shared, t, threads] { IssueStreams(shared, t, threads); });
    for (auto& worker : workers) worker.join();
  }
  for (auto& stream : streams) (void)runtime_checks::WaitIdle(stream);
  outcome.call_error = shared.first_error;
  outcome.operations_issued = shared.accepted.load();

  // Final contents, read by each slot's last owner.
  for (int slot = 0; slot < plan.shape.slots && outcome.call_error.empty(); ++slot) {
    runtime::Stream& owner = streams[plan.final_owner[slot]];
    if (CallStatus status =
            owner.MemcpyDtoH(finals[slot].data(), slots[slot].All(), plan.shape.slot_bytes);
        !status.ok()) {
      outcome.call_error = "reading slot " + std::to_string(slot) + ": " + status.Describe();
    }
  }
  for (auto& stream : streams) (void)runtime_checks::WaitIdle(stream);
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!outcome.call_error.empty()) return outcome;

  for (std::size_t i = 0; i < plan.ops.size() && outcome.result_error.empty(); ++i) {
    const Op& op = plan.ops[i];
    if (op.kind != OpKind::kRead) continue;
    if (auto mismatch =
            runtime_checks::FirstMismatch(reads[i].data(), op.expected.data(), op.size)) {
      outcome.result_error = "op " + std::to_string(i) + " (memcpy_dtoh of slot " +
                             std::to_string(op.slot) + " on stream " + std::to_string(op.stream) +
                             ") read " + *mismatch;
    }
  }
  for (int slot = 0; slot < plan.shape.slots && outcome.result_error.empty(); ++slot) {
    if (auto mismatch = runtime_checks::FirstMismatch(
            finals[slot].data(), plan.final_slots[slot].data(), plan.shape.slot_bytes)) {
      outcome.result_error = "final contents of slot " + std::to_string(slot) + ": " + *mismatch;
    }
  }

  // Every callback exactly once, and per stream in plan order.
  runtime::HostCallbackLedger& ledger = device.session().host_callbacks();
  std::vector<std::vector<std::size_t>> wanted(plan.shape.streams);
  for (std::size_t i = 0; i < plan.ops.size(); ++i) {
    if (plan.ops[i].kind != OpKind::kCallback) continue;
    wanted[plan.ops[i].stream].push_back(i);
    const int invocations = ledger.Record(shared.tickets[i]).invocations;
    if (invocations != 1 && outcome.callback_error.empty()) {
      outcome.callback_error = "the host callback of op " + std::to_string(i) + " ran " +
                               std::to_string(invocations) + " times";
    }
  }
  std::lock_guard lock(shared.ran->first);
  for (int s = 0; s < plan.shape.streams && outcome.callback_error.empty(); ++s) {
    if (shared.ran->second[s] != wanted[s]) {
      outcome.callback_error =
          "host callbacks of stream " + std::to_string(s) +
          " ran out of order (or not all ran): " + std::to_string(shared.ran->second[s].size()) +
          " of " + std::to_string(wanted[s].size()) + " ran";
    }
  }
  return outcome;
}

}  // namespace conformance::stress
