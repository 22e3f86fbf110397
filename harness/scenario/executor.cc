#include "scenario/executor.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "scenario/buffer_model.h"
#include "scenario/host_data.h"
#include "scenario/readback_blame.h"
#include "scenario/schema_keys.h"
#include "scenario/status_codes.h"

namespace conformance::scenario {
namespace {

std::string Hex(uint8_t value) {
  static const char digits[] = "0123456789abcdef";
  return std::string("0x") + digits[value >> 4] + digits[value & 15];
}

const char* StateName(EventState state) {
  switch (state) {
    case EventState::kUnknown: return "unknown";
    case EventState::kPending: return "pending";
    case EventState::kComplete: return "complete";
    case EventState::kError: return "error";
  }
  return "?";
}

// A step's failure, as it travels out of the (possibly concurrent) step loop.
struct StepFailure {
  std::string where;  // "step 4 (memcpy.yaml:15, memcpy_dtoh)"; "" for the end of the scenario
  std::string observation;  // what differed
  std::map<std::string, std::string> details;
  std::optional<Suspect> suspect;  // bytes that differed: localised once every step stopped
  // An event still PENDING where a host wait should have completed it, on this device: an early
  // wait is looked for once every step stopped; -1 for other failures.
  int pending_after_wait_device = -1;
};

// The name TensorFlow's C API gives the call a step makes: a copy without a stream is the
// synchronous variant.
std::string CallName(const Op& op) {
  const std::string name = SchemaOf(op.kind).name;
  const bool copy = op.kind == StepKind::kMemcpyHtoD || op.kind == StepKind::kMemcpyDtoH ||
                    op.kind == StepKind::kMemcpyDtoD;
  return copy && op.stream < 0 ? "sync_" + name : name;
}

struct ReadbackState {
  uint8_t* host = nullptr;       // where the bytes land
  std::vector<uint8_t> scratch;  // when the step names no destination buffer
  ExpectedBytes expected;        // the model's bytes when the copy was queued
  std::string what;              // "'a' bytes 3 to 103"
  const Op* op = nullptr;
  std::string ordered_by;  // what should have ordered the source's last write before this read
  std::string writer;      // the call that last wrote the source when the read was queued
};

class Executor {
 public:
  Executor(const Program& program, Backend& backend, uint64_t seed)
      : program_(program), backend_(backend), seed_(seed) {
    models_.resize(program.buffers.size());
    readbacks_.resize(program.readbacks.size());
    stream_live_.assign(program.streams.size(), false);
    last_writer_.resize(program.buffers.size());
    writer_stream_.assign(program.buffers.size(), -1);
    written_at_.assign(program.buffers.size(), 0);
    host_wait_.resize(program.streams.size());
    event_stream_.assign(program.events.size(), -1);
    writes_.resize(program.buffers.size());
    last_ordering_.resize(program.streams.size());
    ordering_event_.assign(program.streams.size(), -1);
    complete_at_record_.assign(program.events.size(), 0);
    freed_.assign(program.buffers.size(), 0);
  }

  ScenarioOutcome Run() {
    backend_.Reserve(static_cast<int>(program_.buffers.size()),
                     static_cast<int>(program_.streams.size()),
                     static_cast<int>(program_.events.size()));
    Sequence(program_.ops);
    if (!failure_) Finish();
    // Copies still queued (a scenario that stopped at a failure, or an event that lied about
    // its work) read staging_, which dies with this executor: let the device finish first, or
    // the plugin's worker reads freed memory and the crash is blamed on whatever call is next.
    if (failure_) backend_.Settle();
    ScenarioOutcome outcome;
    if (failure_ && not_supported_) {
      outcome.kind = ScenarioOutcome::Kind::kNotSupported;
      outcome.message =
          failure_->where + (failure_->where.empty() ? "" : ": ") + failure_->observation;
    } else if (failure_) {
      // Every step has stopped (threads joined), so localising may drive the plugin freely.
      Blame blame;
      if (failure_->suspect) {
        const Suspect& suspect = *failure_->suspect;
        blame = LocaliseReadback(backend_, suspect, seed_,
                                 suspect.source
                                     ? writes_[static_cast<std::size_t>(suspect.source->slot)]
                                     : std::vector<WriteCall>{});
      }
      if (blame.details.empty()) ExplainBySharedMemory(blame);
      if (blame.details.empty()) ExplainByEarlyWait(blame);
      outcome.kind = ScenarioOutcome::Kind::kFail;
      outcome.message = blame.lead + failure_->where + (failure_->where.empty() ? "" : ": ") +
                        failure_->observation + blame.tail;
      outcome.details = failure_->details;
      // The blame found by looking again replaces the step's own guess.
      for (auto& [key, value] : blame.details) outcome.details[key] = value;
    }
    outcome.details["seed"] = std::to_string(seed_);
    return outcome;
  }

 private:
  // Nothing named so far (or only the observing get_event_status): a host wait that returns
  // before earlier work ran makes every later step race that work, so each wait the scenario
  // called is checked on its own; one that is early is blamed.
  void ExplainByEarlyWait(Blame& blame) {
    const int device =
        failure_->suspect ? failure_->suspect->device : failure_->pending_after_wait_device;
    if (device < 0) return;
    std::set<std::string> waits;
    {
      std::lock_guard lock(mutex_);
      waits = waits_called_;
    }
    auto wait = backend_.FindEarlyWait(device, waits);
    if (!wait) return;
    blame = Blame{wait->description + " (found by checking each host wait on its own after ",
                  "): every step after it ran against work still queued",
                  {{"failing_call", wait->failing_call}, {"problem", wait->problem}}};
  }

  // Still wrong on the device, though every copy is right on its own: if the read buffer holds
  // what the scenario wrote to another live device buffer, and bytes written to that buffer now
  // show up in it too (a wrong copy from there would not follow a second write), the two share
  // memory: allocate, which handed it out twice, is blamed with the pair the C++ checks use.
  void ExplainBySharedMemory(Blame& blame) {
    if (!failure_->suspect || !failure_->suspect->source) return;
    const Suspect& suspect = *failure_->suspect;
    const BufferAt& source = *suspect.source;
    const uint64_t size = suspect.expected.bytes.size();
    if (program_.buffers[static_cast<std::size_t>(source.slot)].kind != BufferKind::kDevice) return;
    const auto trusted = backend_.ReadTrusted(source, size);
    if (!trusted) return;
    for (std::size_t other = 0; other < models_.size(); ++other) {
      const BufferSlot& slot = program_.buffers[other];
      if (static_cast<int>(other) == source.slot || !models_[other] || freed_[other] ||
          slot.kind != BufferKind::kDevice || models_[other]->size() < source.offset + size)
        continue;
      const ExpectedBytes theirs = models_[other]->Read(source.offset, size);
      const bool any_known =
          std::find(theirs.known.begin(), theirs.known.end(), 1) != theirs.known.end();
      if (!any_known || FirstDifference(theirs, trusted->data())) continue;
      if (!backend_.SharesMemory(source.slot, static_cast<int>(other))) continue;
      const BufferSlot& mine = program_.buffers[static_cast<std::size_t>(source.slot)];
      const bool across_devices = slot.device != mine.device;
      blame = Blame{"allocate gave '" + mine.name + "' (device " + std::to_string(mine.device) +
                        ") memory that '" + slot.name + "' (device " + std::to_string(slot.device) +
                        ") also uses: it holds the bytes written to '" + slot.name +
                        "', and bytes written to '" + slot.name +
                        "' now show up in it (read through the known-good copy paths); ",
                    "",
                    {{"failing_call", "allocate"},
                     {"problem", across_devices ? "devices share memory" : "wrong allocation"}}};
      return;
    }
  }

  void NoteWait(const char* call) {
    std::lock_guard lock(mutex_);
    waits_called_.insert(call);
  }

  std::string Where(const Op& op) const {
    return "step " + op.path + " (" + program_.file + ":" + std::to_string(op.step->at.line) +
           ", " + SchemaOf(op.kind).name + ")";
  }

  void Fail(const Op& op, std::string message, std::map<std::string, std::string> details = {},
            std::optional<Suspect> suspect = std::nullopt) {
    std::lock_guard lock(mutex_);
    if (failure_) return;  // the first failure is the one that explains the rest
    details["step"] = op.path;
    details["location"] = program_.file + ":" + std::to_string(op.step->at.line) + ":" +
                          std::to_string(op.step->at.column);
    failure_ = StepFailure{Where(op), std::move(message), std::move(details), std::move(suspect)};
    stop_ = true;
  }

  static std::map<std::string, std::string> WithBlame(std::map<std::string, std::string> blame,
                                                      std::map<std::string, std::string> details) {
    details.merge(blame);
    return details;
  }

  // Compares a call's status with the step's expect_status (OK when it has none).
  bool CheckStatus(const Op& op, const CallStatus& status) {
    if (status.optional_callback_missing) {
      not_supported_ = true;
      Fail(op, "needs " + status.message);
      return false;
    }
    const std::vector<int>& expected = op.step->expect_status;
    const bool matches = expected.empty() ? status.ok()
                                          : std::find(expected.begin(), expected.end(),
                                                      status.code) != expected.end();
    if (matches) return true;
    std::map<std::string, std::string> blame;
    if (expected.empty() && !status.failing_call.empty()) {
      // An error where the step expects success is that callback's defect.
      blame = {{"failing_call", status.failing_call}, {"problem", status.problem}};
    }
    std::string wanted;
    if (expected.empty()) wanted = "OK";
    for (int code : expected) wanted += (wanted.empty() ? "" : " or ") + CodeName(code);
    if (status.synthesized) {
      // No TF_Status came from the plugin: say what it did, in the harness's own words.
      Fail(op,
           "failed: " + status.message + " [plugin_conformance's verdict, counted as " +
               CodeName(status.code) + "; the plugin returned no status], expected " + wanted,
           WithBlame(blame, {{"expected_status", wanted},
                             {"actual_status", CodeName(status.code)},
                             {"status_origin", "harness"}}));
      return false;
    }
    std::string got = CodeName(status.code);
    if (!status.message.empty()) got += " (\"" + status.message + "\")";
    Fail(op, "returned " + got + ", expected " + wanted,
         WithBlame(blame, {{"expected_status", wanted},
                           {"actual_status", CodeName(status.code)},
                           {"status_origin", "plugin"}}));
    return false;
  }

  BufferModel& Model(int slot) { return *models_[slot]; }

  void Sequence(const std::vector<Op>& ops) {
    for (const Op& op : ops) {
      if (stop_) return;
      if (!Execute(op)) return;
      for (int id : op.completes) {
        if (!VerifyReadback(id, Observer(op))) return;
      }
    }
  }

  std::vector<uint8_t> HostBytes(const Op& op) {
    return GenerateBytes(*op.step->data, op.size, seed_, op.repetition);
  }

  bool Execute(const Op& op) {
    using K = StepKind;
    const Step& step = *op.step;
    switch (op.kind) {
      case K::kAllocate: {
        uint64_t size = op.size;
        if (step.size->from_capacity) {
          const auto capacity = backend_.DeviceCapacity(step.device);
          if (!capacity) {
            Fail(op,
                 "the device reports no memory capacity (device_memory_usage), so 'capacity' sizes "
                 "cannot be used");
            return false;
          }
          size = *capacity + op.size;
        }
        const bool allocated =
            backend_.Allocate(std::max(op.buffer, -1), step.buffer_kind, step.device, size);
        const bool expect_success = op.buffer >= 0;
        // More than the device reports, yet usable at its far end: real memory (a host device
        // on an overcommitting kernel), which TensorFlow can use.
        const bool usable_anyway =
            allocated && !expect_success && backend_.LastUnexpectedAllocationUsable();
        if (size == 0 || allocated == expect_success || usable_anyway) {
          if (expect_success) {
            std::lock_guard lock(mutex_);
            models_[op.buffer] = std::make_unique<BufferModel>(size);
          }
          return true;
        }
        std::map<std::string, std::string> details{{"size", std::to_string(size)}};
        if (expect_success) {
          details.merge(backend_.LastAllocationBlame());
        } else {
          details.merge(std::map<std::string, std::string>{
              {"failing_call", "allocate"}, {"problem", "impossible allocation succeeded"}});
        }
        Fail(op,
             expect_success ? "allocating " + std::to_string(size) + " bytes returned NULL"
                            : "allocating " + std::to_string(size) +
                                  " bytes succeeded, expected NULL "
                                  "(RESOURCE_EXHAUSTED: more than the device has), and bytes "
                                  "copied to its last offset do not read back",
             std::move(details));
        return false;
      }
      case K::kDeallocate: {
        backend_.Deallocate(op.buffer);
        std::lock_guard lock(mutex_);
        freed_[static_cast<std::size_t>(op.buffer)] = 1;
        return true;
      }
      case K::kDeallocateNull: backend_.DeallocateNull(step.buffer_kind, step.device); return true;
      case K::kMemcpyHtoD: {
        const std::optional<int> stream =
            op.stream >= 0 ? std::optional<int>(op.stream) : std::nullopt;
        const uint8_t* source = nullptr;
        ExpectedBytes bytes;
        if (op.src >= 0) {
          source = backend_.HostAddress(op.src) + step.src_offset;
          std::lock_guard lock(mutex_);
          bytes = Model(op.src).Read(step.src_offset, op.size);
        } else {
          std::lock_guard lock(mutex_);
          // Kept until the end: an asynchronous copy reads its source when the stream gets there.
          staging_.push_back(HostBytes(op));
          source = staging_.back().data();
          bytes = ExpectedBytes{staging_.back(), std::vector<uint8_t>(op.size, 1)};
        }
        const CallStatus status =
            backend_.MemcpyHtoD(stream, {op.dst, step.dst_offset}, source, op.size);
        if (!CheckStatus(op, status)) return false;
        if (status.ok()) {
          std::lock_guard lock(mutex_);
          Model(op.dst).Write(step.dst_offset, bytes);
          NoteWriter(op, op.dst);
        }
        return true;
      }
      case K::kMemcpyDtoH: {
        const std::optional<int> stream =
            op.stream >= 0 ? std::optional<int>(op.stream) : std::nullopt;
        ReadbackState* readback = op.readback >= 0 ? &readbacks_[op.readback] : nullptr;
        std::vector<uint8_t> discard;
        uint8_t* destination = nullptr;
        ExpectedBytes expected;
        {
          std::lock_guard lock(mutex_);
          expected = Model(op.src).Read(step.src_offset, op.size);
        }
        if (op.dst >= 0) {
          destination = backend_.HostAddress(op.dst) + step.dst_offset;
        } else if (readback) {
          readback->scratch.resize(op.size);
          destination = readback->scratch.data();
        } else {
          discard.resize(op.size);
          destination = discard.data();
        }
        // Poison the destination with the complement of what must arrive, so a byte the plugin
        // never writes is always a difference.
        for (uint64_t i = 0; i < op.size; ++i)
          destination[i] = static_cast<uint8_t>(~expected.bytes[i]);
        if (readback) {
          readback->host = destination;
          readback->expected = expected;
          readback->op = &op;
          readback->what = "'" + program_.buffers[op.src].name + "' bytes " +
                           std::to_string(step.src_offset) + " to " +
                           std::to_string(step.src_offset + op.size);
          readback->ordered_by = OrderedBy(op);
          readback->writer = LastWriter(op.src);
        }
        const CallStatus status =
            backend_.MemcpyDtoH(stream, destination, {op.src, step.src_offset}, op.size);
        if (!CheckStatus(op, status)) return false;
        if (status.ok() && op.dst >= 0) {
          std::lock_guard lock(mutex_);
          Model(op.dst).Write(step.dst_offset, expected);
        }
        return true;
      }
      case K::kMemcpyDtoD: {
        const std::optional<int> stream =
            op.stream >= 0 ? std::optional<int>(op.stream) : std::nullopt;
        const CallStatus status = backend_.MemcpyDtoD(stream, {op.dst, step.dst_offset},
                                                      {op.src, step.src_offset}, op.size);
        if (!CheckStatus(op, status)) return false;
        if (status.ok()) {
          std::lock_guard lock(mutex_);
          const ExpectedBytes bytes = Model(op.src).Read(step.src_offset, op.size);
          Model(op.dst).Write(step.dst_offset, bytes);
          NoteWriter(op, op.dst);
          NoteWrite(op, op.dst, step.dst_offset, op.src, step.src_offset, 0);
        }
        return true;
      }
      case K::kMemset:
      case K::kMemset32:
      case K::kMemZero: {
        const BufferAt at{op.buffer, step.offset};
        CallStatus status;
        std::vector<uint8_t> unit;
        if (op.kind == K::kMemset) {
          status = backend_.Memset(op.stream, at, static_cast<uint8_t>(step.value), op.size);
          unit = {static_cast<uint8_t>(step.value)};
        } else if (op.kind == K::kMemset32) {
          status = backend_.Memset32(op.stream, at, step.value, op.size);
          unit.resize(4);
          std::memcpy(unit.data(), &step.value, 4);  // the device's (host's) byte order
        } else {
          status = backend_.MemZero(op.stream, at, op.size);
          unit = {0};
        }
        if (!CheckStatus(op, status)) return false;
        if (status.ok()) {
          std::lock_guard lock(mutex_);
          Model(op.buffer).Fill(step.offset, op.size, unit);
          NoteWriter(op, op.buffer);
          NoteWrite(op, op.buffer, step.offset, -1, 0, step.value);
        }
        return true;
      }
      case K::kWrite: {
        const std::vector<uint8_t> bytes = HostBytes(op);
        if (op.size > 0)
          std::memcpy(backend_.HostAddress(op.buffer) + step.offset, bytes.data(), op.size);
        std::lock_guard lock(mutex_);
        Model(op.buffer).Write(step.offset, bytes.data(), op.size);
        return true;
      }
      case K::kVerify: {
        ExpectedBytes expected;
        {
          std::lock_guard lock(mutex_);
          expected = Model(op.buffer).Read(step.offset, op.size);
        }
        const uint8_t* actual =
            op.size > 0 ? backend_.HostAddress(op.buffer) + step.offset : nullptr;
        if (op.size == 0) return true;
        // Which call brought these bytes to the host is not tracked: a late one is not named.
        Suspect suspect{actual, expected, program_.buffers[op.buffer].device, "", std::nullopt, "",
                        "",     ""};
        return Compare(op, expected, actual,
                       "'" + program_.buffers[op.buffer].name + "' bytes " +
                           std::to_string(step.offset) + " to " +
                           std::to_string(step.offset + op.size),
                       step.offset, std::move(suspect));
      }
      case K::kCreateStream: {
        const CallStatus status = backend_.CreateStream(op.stream, step.device);
        if (!CheckStatus(op, status)) return false;
        if (op.stream >= 0) stream_live_[op.stream] = true;
        return true;
      }
      case K::kDestroyStream:
        backend_.DestroyStream(op.stream);
        stream_live_[op.stream] = false;
        return true;
      case K::kCreateEvent: return CheckStatus(op, backend_.CreateEvent(op.event, step.device));
      case K::kDestroyEvent: backend_.DestroyEvent(op.event); return true;
      case K::kRecordEvent: {
        if (!CheckStatus(op, backend_.RecordEvent(op.stream, op.event))) return false;
        {
          std::lock_guard lock(mutex_);
          event_stream_[static_cast<std::size_t>(op.event)] = op.stream;
        }
        // Read at once: if a read ordered by this event later runs early, an event already
        // complete when recorded is record_event's defect, not wait_for_event's.
        const bool complete = backend_.GetEventStatus(op.event) == EventState::kComplete;
        std::lock_guard lock(mutex_);
        complete_at_record_[static_cast<std::size_t>(op.event)] = complete;
        return true;
      }
      case K::kWaitForEvent:
        NoteOrdering(op.stream, "wait_for_event", op.event);
        return CheckStatus(op, backend_.WaitForEvent(op.stream, op.event));
      case K::kCreateStreamDependency:
        NoteOrdering(op.dependent, "create_stream_dependency");
        return CheckStatus(op, backend_.CreateStreamDependency(op.dependent, op.other));
      case K::kHoldStream: return CheckStatus(op, backend_.HoldStream(op.stream));
      case K::kBlockHostUntilDone:
        NoteWait("block_host_until_done");
        NoteHostWait("block_host_until_done", [&](int stream) { return stream == op.stream; });
        return CheckStatus(op, backend_.BlockHostUntilDone(op.stream));
      case K::kBlockHostForEvent: {
        NoteWait("block_host_for_event");
        int recorded_on = -1;
        {
          std::lock_guard lock(mutex_);
          recorded_on = event_stream_[static_cast<std::size_t>(op.event)];
        }
        NoteHostWait("block_host_for_event", [&](int stream) { return stream == recorded_on; });
        return CheckStatus(op, backend_.BlockHostForEvent(op.event));
      }
      case K::kSynchronizeAllActivity:
        NoteWait("synchronize_all_activity");
        NoteHostWait("synchronize_all_activity", [&](int stream) {
          return program_.streams[static_cast<std::size_t>(stream)].device == step.device;
        });
        return CheckStatus(op, backend_.SynchronizeAllActivity(step.device));
      case K::kGetStreamStatus: return CheckStatus(op, backend_.GetStreamStatus(op.stream));
      case K::kGetEventStatus: {
        const EventState state = backend_.GetEventStatus(op.event);
        const auto& expected = step.expect_event_state;
        if (std::find(expected.begin(), expected.end(), state) != expected.end()) return true;
        std::string wanted;
        for (EventState e : expected)
          wanted += std::string(wanted.empty() ? "" : " or ") + StateName(e);
        Fail(op,
             "event '" + program_.events[op.event].name + "' is " + StateName(state) +
                 ", expected " + wanted,
             // The same culprit and phrase as runtime.event.state_machine: one root cause.
             {{"expected_state", wanted},
              {"actual_state", StateName(state)},
              {"failing_call", "get_event_status"},
              {"problem", "wrong event state"}});
        // Still PENDING where only COMPLETE will do: a wait before it may have returned early.
        if (state == EventState::kPending) {
          std::lock_guard lock(mutex_);
          if (failure_ && failure_->where == Where(op))
            failure_->pending_after_wait_device = program_.events[op.event].device;
        }
        return false;
      }
      case K::kConcurrent: {
        std::vector<std::thread> threads;
        for (const std::vector<Op>& ops : op.threads)
          threads.emplace_back([this, &ops] { Sequence(ops); });
        for (std::thread& thread : threads) thread.join();
        return !stop_;
      }
      case K::kRepeat: return true;  // unrolled by the validator
    }
    return true;
  }

  bool Compare(const Op& op, const ExpectedBytes& expected, const uint8_t* actual,
               const std::string& what, uint64_t base_offset, Suspect suspect) {
    const auto difference = FirstDifference(expected, actual);
    if (!difference) return true;
    const uint64_t offset = base_offset + difference->offset;
    Fail(op,
         what + " differ from the model: first at byte " + std::to_string(difference->offset) +
             " of the range (offset " + std::to_string(offset) + "): expected " +
             Hex(difference->expected) + ", got " + Hex(difference->actual) + "; " +
             std::to_string(difference->differing_bytes) + " of " +
             std::to_string(expected.bytes.size()) + " bytes differ",
         {{"offset", std::to_string(offset)},
          {"expected", Hex(difference->expected)},
          {"actual", Hex(difference->actual)},
          {"differing_bytes", std::to_string(difference->differing_bytes)}},
         std::move(suspect));
    return false;
  }

  // The call after which a read-back must be complete; a host wait on an event that was
  // already COMPLETE when recorded had nothing to wait for: record_event is the one to blame.
  std::string Observer(const Op& op) {
    if (op.kind == StepKind::kBlockHostForEvent && op.event >= 0) {
      std::lock_guard lock(mutex_);
      if (complete_at_record_[static_cast<std::size_t>(op.event)]) return "record_event";
    }
    return CallName(op);
  }

  void NoteOrdering(int stream, const char* call, int event = -1) {
    if (stream < 0) return;
    std::lock_guard lock(mutex_);
    last_ordering_[static_cast<std::size_t>(stream)] = call;
    ordering_event_[static_cast<std::size_t>(stream)] = event;
  }

  // The call that last wrote `buffer`, on which stream, and when. The caller holds mutex_.
  void NoteWriter(const Op& op, int buffer) {
    const auto slot = static_cast<std::size_t>(buffer);
    last_writer_[slot] = CallName(op);
    writer_stream_[slot] = op.stream;
    written_at_[slot] = ++clock_;
  }

  // A host wait covering the streams `covers` accepts: work queued on them before it precedes
  // whatever any stream queues after it returns.
  template <typename Covers>
  void NoteHostWait(const char* call, Covers covers) {
    std::lock_guard lock(mutex_);
    ++clock_;
    for (std::size_t stream = 0; stream < host_wait_.size(); ++stream) {
      if (covers(static_cast<int>(stream))) host_wait_[stream] = {call, clock_};
    }
  }

  // What should have put the source's bytes in place before this read, taken when the read is
  // queued: a synchronous write (done when it returned), a host wait on the writer's stream
  // after the write, else the last call that made the reading stream wait for another.
  std::string OrderedBy(const Op& read) {
    std::lock_guard lock(mutex_);
    const auto source = static_cast<std::size_t>(read.src);
    const std::string& writer = last_writer_[source];
    // A synchronous read wrong in context is its own defect as often as a late write (the
    // engine's ReadbackBlame tests): only a read on a stream is put down to what ordered it.
    if (read.stream < 0) return "";
    if (writer.starts_with("sync_")) return writer;
    const int written_on = writer_stream_[source];
    if (written_on >= 0 && written_on != read.stream) {
      const HostWait& wait = host_wait_[static_cast<std::size_t>(written_on)];
      if (wait.at > written_at_[source]) return wait.call;
    }
    const auto stream = static_cast<std::size_t>(read.stream);
    const int event = ordering_event_[stream];
    if (event >= 0 && complete_at_record_[static_cast<std::size_t>(event)]) return "record_event";
    return last_ordering_[stream];
  }

  // A fill or device-to-device copy into a device buffer, kept so a wrong read-back of that
  // buffer can be put down to the call done again with these arguments (ReplayWrite). Copies
  // between two devices are not kept: done again, both ends are on one device. The caller holds
  // mutex_.
  void NoteWrite(const Op& op, int dst, uint64_t dst_offset, int src, uint64_t src_offset,
                 uint32_t value) {
    const BufferSlot& to = program_.buffers[static_cast<std::size_t>(dst)];
    if (to.kind != BufferKind::kDevice) return;
    WriteCall write{CallName(op), to.device, to.size, dst_offset, 0, 0, op.size, value};
    if (src >= 0) {
      const BufferSlot& from = program_.buffers[static_cast<std::size_t>(src)];
      if (from.kind != BufferKind::kDevice || from.device != to.device) return;
      write.src_size = from.size;
      write.src_offset = src_offset;
    }
    writes_[static_cast<std::size_t>(dst)].push_back(std::move(write));
  }

  std::string LastWriter(int buffer) {
    std::lock_guard lock(mutex_);
    return last_writer_[static_cast<std::size_t>(buffer)];
  }

  // `observer`: the call after which the read-back's bytes must be on the host.
  bool VerifyReadback(int id, const std::string& observer) {
    const ReadbackState& readback = readbacks_[id];
    if (!readback.op) return true;  // its copy failed as expected: nothing arrived
    const Op& op = *readback.op;
    const Step& step = *op.step;
    Suspect suspect{readback.host,
                    readback.expected,
                    program_.buffers[op.src].device,
                    observer,
                    BufferAt{op.src, step.src_offset},
                    CallName(op),
                    readback.ordered_by,
                    readback.writer};
    return Compare(op, readback.expected, readback.host, "read-back of " + readback.what,
                   step.src_offset, std::move(suspect));
  }

  // The end: wait for every stream still alive, then verify what is still pending.
  void Finish() {
    for (std::size_t slot = 0; slot < stream_live_.size(); ++slot) {
      if (!stream_live_[slot]) continue;
      const CallStatus status = backend_.BlockHostUntilDone(static_cast<int>(slot));
      if (!status.ok()) {
        std::lock_guard lock(mutex_);
        failure_ = StepFailure{
            "",
            "end of scenario (" + program_.file + "): block_host_until_done on stream '" +
                program_.streams[slot].name + "' returned " + CodeName(status.code) +
                (status.message.empty() ? "" : " (\"" + status.message + "\")"),
            {},
            std::nullopt};
        return;
      }
    }
    for (int id : program_.final_readbacks) {
      if (!VerifyReadback(id, "block_host_until_done")) return;
    }
  }

  const Program& program_;
  Backend& backend_;
  const uint64_t seed_;
  std::mutex mutex_;  // the model and the failure; never held across a plugin call
  std::vector<std::unique_ptr<BufferModel>> models_;
  std::vector<ReadbackState> readbacks_;
  std::deque<std::vector<uint8_t>> staging_;
  std::vector<uint8_t> stream_live_;      // not vector<bool>: threads set different entries
  std::vector<std::string> last_writer_;  // per buffer: the call that last wrote it
  std::vector<int> writer_stream_;        // per buffer: that call's stream, or -1
  std::vector<uint64_t> written_at_;      // per buffer: when (clock_) it was last written
  struct HostWait {
    std::string call;
    uint64_t at = 0;  // clock_ when it was called; 0 never
  };
  std::vector<HostWait> host_wait_;  // per stream: the last host wait that covered it
  std::vector<int> event_stream_;    // per event: the stream it was last recorded on, or -1
  uint64_t clock_ = 0;               // counts writes and host waits, in the order they happen
  std::vector<std::vector<WriteCall>> writes_;  // per buffer: its fills and device copies
  std::vector<std::string> last_ordering_;      // per stream: its last wait on another stream
  std::vector<int> ordering_event_;             // per stream: the event it last waited for, or -1
  std::vector<uint8_t> complete_at_record_;     // per event: read COMPLETE right after record_event
  std::set<std::string> waits_called_;          // host waits the steps called
  std::vector<uint8_t> freed_;                  // per buffer: deallocated by a step
  std::optional<StepFailure> failure_;
  bool not_supported_ = false;  // the first "failure" was an optional callback left NULL
  std::atomic<bool> stop_{false};
};

}  // namespace

std::optional<std::string> UnmetRequirement(const Requirements& requirements, Backend& backend) {
  const int devices = backend.DeviceCount();
  if (devices < requirements.devices) {
    return "needs " + std::to_string(requirements.devices) + " devices; the plugin has " +
           std::to_string(devices);
  }
  if (requirements.unified_memory && !backend.SupportsUnifiedMemory()) {
    return "needs unified memory; the plugin's platform sets supports_unified_memory = false";
  }
  return std::nullopt;
}

namespace {

// A size written as `capacity+N` needs the device's total memory. device_memory_usage may
// return false ("not available", which the header allows): the scenario cannot be formed then,
// which is not_supported, never a failure of the plugin.
std::optional<std::string> UnknownCapacity(const std::vector<Op>& ops, Backend& backend) {
  for (const Op& op : ops) {
    for (const std::vector<Op>& thread : op.threads) {
      if (auto nested = UnknownCapacity(thread, backend)) return nested;
    }
    if (op.step == nullptr || !op.step->size || !op.step->size->from_capacity) continue;
    if (!backend.DeviceCapacity(op.step->device)) {
      return "device " + std::to_string(op.step->device) +
             " reports no memory capacity (device_memory_usage returned false or no total, which "
             "the header allows "
             "as \"not available\"), so a size derived from 'capacity' cannot be formed";
    }
  }
  return std::nullopt;
}

}  // namespace

ScenarioOutcome RunProgram(const Program& program, Backend& backend, uint64_t seed) {
  auto unmet = UnmetRequirement(program.requirements, backend);
  if (!unmet) unmet = UnknownCapacity(program.ops, backend);
  if (unmet) {
    ScenarioOutcome outcome;
    outcome.kind = ScenarioOutcome::Kind::kNotSupported;
    outcome.message = *unmet;
    return outcome;
  }
  return Executor(program, backend, seed).Run();
}

}  // namespace conformance::scenario
