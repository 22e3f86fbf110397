#include "scenario/validator.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "scenario/happens_before.h"
#include "scenario/schema_keys.h"
#include "scenario/status_codes.h"

namespace conformance::scenario {
namespace {

constexpr uint64_t kMaxCopyBytes = uint64_t{1} << 30;  // the engine stages copies in host memory
constexpr std::size_t kMaxOps = 1'000'000;

// Thrown after the first problem of a scenario: what follows a bad step would only produce
// follow-up noise (undefined names, ...), so one scenario reports one problem.
struct Stop {};

const char* KindName(BufferKind kind) {
  switch (kind) {
    case BufferKind::kDevice: return "device";
    case BufferKind::kHost: return "host";
    case BufferKind::kUnified: return "unified";
  }
  return "?";
}

enum class NameType { kBuffer, kStream, kEvent };

const char* TypeName(NameType type) {
  switch (type) {
    case NameType::kBuffer: return "buffer";
    case NameType::kStream: return "stream";
    case NameType::kEvent: return "event";
  }
  return "?";
}

std::string LineOf(Location at) { return "line " + std::to_string(at.line); }

struct NameEntry {
  NameType type = NameType::kBuffer;
  int slot = -1;
  bool live = false;
  std::string created;                      // "step 3 (line 7)"
  std::string destroyed;                    // set once destroyed
  std::string failed;                       // set when its creation expects an error
  int owner_block = -1, owner_thread = -1;  // created inside that concurrent thread
};

struct StreamState {
  int device = 0;
  int timeline = 0;
  bool live = true;
  VectorClock clock;
};

struct EventState_ {
  int device = 0;
  bool recorded = false;
  int record_timeline = 0;
  uint64_t record_epoch = 0;
  VectorClock clock;  // what the newest record's point on its stream knew
};

struct PendingReadback {
  int id;
  int timeline;
  uint64_t epoch;
  int dst = -1;  // named destination buffer, if any
  uint64_t dst_offset = 0, size = 0;
};

struct Block {
  int id = 0;
  std::map<int, int> stream_thread;  // stream slot → thread that uses it in this block
  std::map<int, int> event_thread;
  std::vector<VectorClock> stream_clocks_at_start;
};

struct Context {
  int host = 0;  // timeline of the host thread running these steps
  VectorClock clock;
  Block* block = nullptr;
  int thread = -1;
  std::string repetition;  // " (repetition 2 of 3)"
  uint64_t salt = 0;
};

class Validator {
 public:
  Validator(const ScenarioFile& file, const Scenario& scenario, ErrorList& errors)
      : file_(file), scenario_(scenario), errors_(errors) {
    timeline_names_.push_back("the host");
  }

  std::optional<Program> Run() {
    program_.file = file_.label;
    program_.requirements = scenario_.requirements;
    try {
      CountOps(scenario_.steps, 0);
      Context main;
      main.host = 0;
      Sequence(scenario_.steps, main, program_.ops);
      // The engine waits for every live stream at the end; read-backs still pending are
      // verified then.
      for (const StreamState& stream : streams_) {
        if (stream.live) main.clock.Join(stream.clock);
      }
      for (const auto& [timeline, queue] : pending_) {
        for (const PendingReadback& pending : queue) program_.final_readbacks.push_back(pending.id);
      }
      std::sort(program_.final_readbacks.begin(), program_.final_readbacks.end());
    } catch (const Stop&) {
      return std::nullopt;
    }
    return std::move(program_);
  }

 private:
  [[noreturn]] void Fail(const Step& step, const std::string& key, const std::string& message) {
    errors_.Add(key.empty() ? step.at : step.KeyAt(key),
                key.empty() ? SchemaOf(step.kind).name : key, "step " + step.path + ": " + message);
    throw Stop{};
  }

  std::string Where(const Step& step, const Context& context) const {
    return "step " + step.path + context.repetition + " (" + LineOf(step.at) + ")";
  }

  int NewTimeline(std::string name) {
    timeline_names_.push_back(std::move(name));
    return static_cast<int>(timeline_names_.size()) - 1;
  }

  // --- names ---

  void Define(const Step& step, const Context& context, NameType type, int slot,
              std::string failed) {
    auto it = names_.find(step.name);
    if (it != names_.end() && (it->second.live || !it->second.failed.empty())) {
      Fail(step, "name",
           "duplicate name '" + step.name + "': a " + TypeName(it->second.type) +
               " of that name was created by " + it->second.created + " and is still alive");
    }
    NameEntry entry;
    entry.type = type;
    entry.slot = slot;
    entry.live = failed.empty();
    entry.created = Where(step, context);
    entry.failed = std::move(failed);
    if (context.block) {
      entry.owner_block = context.block->id;
      entry.owner_thread = context.thread;
    }
    names_[step.name] = entry;
  }

  NameEntry& Resolve(const Step& step, const Context& context, const std::string& key,
                     const std::string& name, NameType type) {
    auto it = names_.find(name);
    if (it == names_.end()) {
      std::vector<std::string> candidates;
      for (const auto& [candidate, entry] : names_) {
        if (entry.type == type && entry.live) candidates.push_back(candidate);
      }
      Fail(step, key,
           std::string("undefined ") + TypeName(type) + " '" + name + "'" +
               Suggestion(name, candidates));
    }
    NameEntry& entry = it->second;
    if (entry.type != type) {
      Fail(step, key, "'" + name + "' is a " + TypeName(entry.type) + ", not a " + TypeName(type));
    }
    if (!entry.failed.empty()) {
      Fail(step, key,
           "'" + name + "' never exists: its creation at " + entry.created + " expects " +
               entry.failed);
    }
    if (!entry.live) {
      Fail(step, key, "'" + name + "' is used after it was destroyed by " + entry.destroyed);
    }
    if (context.block && entry.owner_block == context.block->id &&
        entry.owner_thread != context.thread) {
      Fail(step, key,
           "'" + name + "' is created by thread " + std::to_string(entry.owner_thread + 1) +
               " of this concurrent block; threads are not ordered, so another thread cannot use "
               "it");
    }
    return entry;
  }

  void Destroy(const Step& step, const Context& context, const std::string& key, NameEntry& entry) {
    if (context.block && entry.owner_block != context.block->id) {
      Fail(step, key,
           "a thread of a concurrent block may only destroy what it created itself (other threads "
           "may still use it)");
    }
    entry.live = false;
    entry.destroyed = Where(step, context);
  }

  int Buffer(const Step& step, const Context& context, const std::string& key,
             std::initializer_list<BufferKind> kinds) {
    const std::string& name = key == "buffer" ? step.buffer : key == "src" ? step.src : step.dst;
    const int slot = Resolve(step, context, key, name, NameType::kBuffer).slot;
    const BufferSlot& buffer = program_.buffers[slot];
    bool fits = false;
    std::string allowed;
    for (BufferKind kind : kinds) {
      fits = fits || kind == buffer.kind;
      allowed += std::string(allowed.empty() ? "" : " or ") + KindName(kind);
    }
    if (!fits) {
      Fail(step, key,
           "'" + name + "' is a " + KindName(buffer.kind) + " buffer; " + SchemaOf(step.kind).name +
               " needs a " + allowed + " buffer here");
    }
    return slot;
  }

  void ClaimForThread(const Step& step, const Context& context, const std::string& key,
                      std::map<int, int>& claims, int slot, const std::string& name) {
    if (!context.block) return;
    auto [it, inserted] = claims.emplace(slot, context.thread);
    if (!inserted && it->second != context.thread) {
      Fail(step, key,
           "'" + name + "' is also used by thread " + std::to_string(it->second + 1) +
               " of this concurrent block; its order would depend on thread timing (give each "
               "thread its own)");
    }
  }

  int Stream(const Step& step, const Context& context, const std::string& key,
             const std::string& name) {
    const int slot = Resolve(step, context, key, name, NameType::kStream).slot;
    if (context.block) ClaimForThread(step, context, key, context.block->stream_thread, slot, name);
    return slot;
  }

  int Event(const Step& step, const Context& context, const std::string& key,
            const std::string& name) {
    const int slot = Resolve(step, context, key, name, NameType::kEvent).slot;
    if (context.block) ClaimForThread(step, context, key, context.block->event_thread, slot, name);
    return slot;
  }

  void CheckDevice(const Step& step, int device) {
    if (device >= scenario_.requirements.devices) {
      Fail(step, "device",
           "device " + std::to_string(device) +
               " needs 'requires: [devices>=" + std::to_string(device + 1) +
               "]' in the scenario (so plugins with fewer devices report not_supported)");
    }
  }

  void SameDevice(const Step& step, const std::string& key, int device, int expected,
                  const std::string& what) {
    if (device != expected) {
      Fail(step, key,
           "on device " + std::to_string(device) + " but " + what + " is on device " +
               std::to_string(expected) + "; scenarios keep each operation on one device");
    }
  }

  // --- expected statuses ---

  // True when the step is expected to succeed. Mixing OK with errors would leave the model
  // unable to know whether the step changed anything.
  bool ExpectsSuccess(const Step& step) {
    if (step.expect_status.empty()) return true;
    bool ok = false, error = false;
    for (int code : step.expect_status) (code == kCodeOk ? ok : error) = true;
    if (ok && error) {
      Fail(step, "expect_status",
           "mixes OK with error codes; the engine could not tell whether the step changed memory");
    }
    return ok;
  }

  // --- ranges and ordering ---

  void Range(const Step& step, const std::string& offset_key, uint64_t offset, uint64_t size,
             int slot) {
    const BufferSlot& buffer = program_.buffers[slot];
    if (offset > buffer.size || size > buffer.size - offset) {
      Fail(step, step.Has(offset_key) ? offset_key : "size",
           "bytes " + std::to_string(offset) + " to " + std::to_string(offset + size) +
               " are beyond '" + buffer.name + "', which has " + std::to_string(buffer.size) +
               " bytes");
    }
  }

  void Touch(const Step& step, const Context& context, const std::string& key, int slot,
             uint64_t offset, uint64_t size, bool write, int timeline, const VectorClock& now,
             const std::string& on) {
    if (size == 0) return;
    Access access{offset,   offset + size,     write,
                  timeline, now.Get(timeline), Where(step, context) + " " + on};
    if (auto conflict = logs_[slot].Conflict(access, now)) {
      Fail(step, key,
           std::string(write ? "writes" : "reads") + " bytes " + std::to_string(offset) + " to " +
               std::to_string(offset + size) + " of '" + program_.buffers[slot].name + "' " + on +
               ", unordered with " + conflict->what + ", which " +
               (conflict->write ? "writes" : "reads") +
               " them; order the two with create_stream_dependency, record_event + wait_for_event, "
               "or a host synchronization");
    }
    logs_[slot].Record(std::move(access));
  }

  // A step on a stream: the enqueue happens after everything the host thread did so far.
  VectorClock& Enqueue(const Step& step, Context& context, int stream_slot) {
    StreamState& stream = streams_[stream_slot];
    stream.clock.Join(context.clock);
    stream.clock.Tick(stream.timeline);
    (void)step;
    return stream.clock;
  }

  std::string On(int stream_slot) const {
    return stream_slot < 0 ? "on the host"
                           : "on stream '" + program_.streams[stream_slot].name + "'";
  }

  // After the host thread learned something: read-backs it now knows complete. Pending
  // read-backs are queued per timeline in epoch order, so each is looked at once when it
  // completes, not at every synchronization (which made long repeats quadratic).
  void CompleteReadbacks(const Step& step, Context& context, Op& op) {
    std::vector<PendingReadback> done;
    for (auto& [timeline, queue] : pending_) {
      while (!queue.empty() && context.clock.Covers(timeline, queue.front().epoch)) {
        done.push_back(queue.front());
        queue.pop_front();
      }
    }
    std::sort(done.begin(), done.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    for (const PendingReadback& readback : done) {
      op.completes.push_back(readback.id);
      // Verifying reads the destination on this host thread.
      if (readback.dst >= 0) {
        Touch(step, context, "stream", readback.dst, readback.dst_offset, readback.size, false,
              context.host, context.clock, "(verifying a read-back on the host)");
      }
    }
  }

  // --- steps ---

  // The number of ops `steps` unroll to, checked against kMaxOps before anything is unrolled,
  // so a nested repeat costs nothing to refuse. `before`: ops that precede these steps.
  uint64_t CountOps(const std::vector<Step>& steps, uint64_t before) {
    uint64_t total = before;
    for (const Step& step : steps) {
      uint64_t ops = 1;
      if (step.kind == StepKind::kRepeat) {
        const uint64_t body = CountOps(step.body, 0);
        ops = body * static_cast<uint64_t>(step.times);  // both <= kMaxOps: no overflow
        if (total + ops > kMaxOps) {
          Fail(step, "times",
               std::to_string(step.times) + " repetitions of " + std::to_string(body) +
                   " steps would make the scenario more than " + std::to_string(kMaxOps) +
                   " steps long after unrolling repeats");
        }
      } else if (step.kind == StepKind::kConcurrent) {
        for (const auto& thread : step.threads) ops = CountOps(thread, total + ops) - total;
      }
      total += ops;
      if (total > kMaxOps)
        Fail(step, "",
             "the scenario is more than " + std::to_string(kMaxOps) +
                 " steps long after unrolling repeats");
    }
    return total;
  }

  void Sequence(const std::vector<Step>& steps, Context& context, std::vector<Op>& out) {
    for (const Step& step : steps) {
      if (step.kind == StepKind::kRepeat) {
        for (int i = 1; i <= step.times; ++i) {
          Context inner = context;
          inner.repetition =
              context.repetition.empty()
                  ? " (repetition " + std::to_string(i) + " of " + std::to_string(step.times) + ")"
                  : context.repetition.substr(0, context.repetition.size() - 1) + ", " +
                        std::to_string(i) + " of " + std::to_string(step.times) + ")";
          inner.salt = context.salt * 100003 + static_cast<uint64_t>(i);
          Sequence(step.body, inner, out);
          context.clock = inner.clock;
        }
        continue;
      }
      if (++op_count_ > kMaxOps)
        Fail(step, "times", "more than 1000000 steps after unrolling repeats");
      Op op;
      op.step = &step;
      op.kind = step.kind;
      op.path = step.path + context.repetition;
      op.repetition = context.salt;
      One(step, context, op);
      out.push_back(std::move(op));
    }
  }

  void One(const Step& step, Context& context, Op& op) {
    using K = StepKind;
    const bool succeeds = ExpectsSuccess(step);
    const uint64_t size = step.size ? step.size->bytes : 0;
    op.size = size;
    if (step.size && !step.size->from_capacity && step.kind != K::kAllocate &&
        size > kMaxCopyBytes) {
      Fail(step, "size",
           std::to_string(size) +
               " bytes is more than the 1G one step may move (the engine stages it on the host)");
    }
    switch (step.kind) {
      case K::kAllocate: {
        CheckDevice(step, step.device);
        if (step.buffer_kind == BufferKind::kUnified && !scenario_.requirements.unified_memory) {
          Fail(step, "kind", "unified memory needs 'requires: [unified_memory]' in the scenario");
        }
        std::string failed;
        for (int code : step.expect_status) {
          if (code != kCodeOk && code != kCodeResourceExhausted) {
            Fail(step, "expect_status",
                 "an allocation either succeeds (OK) or returns NULL (RESOURCE_EXHAUSTED), not " +
                     CodeName(code));
          }
        }
        if (!succeeds) failed = "RESOURCE_EXHAUSTED";
        if (step.size->from_capacity && succeeds) {
          Fail(step, "size",
               "a size derived from the device capacity can only be expected to fail "
               "(add 'expect_status: RESOURCE_EXHAUSTED')");
        }
        int slot = -1;
        if (succeeds) {
          slot = static_cast<int>(program_.buffers.size());
          program_.buffers.push_back({step.name, step.buffer_kind, step.device, size});
          logs_.emplace_back();
        }
        op.buffer = slot;
        // Allocation and deallocation are host actions on the whole buffer.
        Define(step, context, NameType::kBuffer, slot, failed);
        if (slot >= 0) {
          context.clock.Tick(context.host);
          Touch(step, context, "name", slot, 0, size, true, context.host, context.clock,
                "on the host");
        }
        return;
      }
      case K::kDeallocate: {
        NameEntry& entry = Resolve(step, context, "buffer", step.buffer, NameType::kBuffer);
        op.buffer = entry.slot;
        context.clock.Tick(context.host);
        Touch(step, context, "buffer", entry.slot, 0, program_.buffers[entry.slot].size, true,
              context.host, context.clock, "(freeing it) on the host");
        Destroy(step, context, "buffer", entry);
        return;
      }
      case K::kDeallocateNull:
        CheckDevice(step, step.device);
        if (step.buffer_kind == BufferKind::kUnified && !scenario_.requirements.unified_memory) {
          Fail(step, "kind", "unified memory needs 'requires: [unified_memory]' in the scenario");
        }
        return;
      case K::kMemcpyHtoD: {
        op.dst = Buffer(step, context, "dst", {BufferKind::kDevice, BufferKind::kUnified});
        if (step.data && step.data->kind == HostData::Kind::kLiteral) {
          if (step.Has("size") && size != step.data->bytes.size()) {
            Fail(step, "size",
                 "is " + std::to_string(size) + " but 'data' has " +
                     std::to_string(step.data->bytes.size()) + " bytes");
          }
          op.size = step.data->bytes.size();
        }
        Range(step, "dst_offset", step.dst_offset, op.size, op.dst);
        if (!step.src.empty()) {
          op.src = Buffer(step, context, "src", {BufferKind::kHost, BufferKind::kUnified});
          Range(step, "src_offset", step.src_offset, op.size, op.src);
        }
        const int device = program_.buffers[op.dst].device;
        Copy(step, context, op, device, op.src, step.src_offset, op.dst, step.dst_offset, succeeds);
        return;
      }
      case K::kMemcpyDtoH: {
        op.src = Buffer(step, context, "src", {BufferKind::kDevice, BufferKind::kUnified});
        Range(step, "src_offset", step.src_offset, size, op.src);
        if (!step.dst.empty()) {
          op.dst = Buffer(step, context, "dst", {BufferKind::kHost, BufferKind::kUnified});
          Range(step, "dst_offset", step.dst_offset, size, op.dst);
        }
        Copy(step, context, op, program_.buffers[op.src].device, op.src, step.src_offset, op.dst,
             step.dst_offset, succeeds);
        return;
      }
      case K::kMemcpyDtoD: {
        op.src = Buffer(step, context, "src", {BufferKind::kDevice, BufferKind::kUnified});
        op.dst = Buffer(step, context, "dst", {BufferKind::kDevice, BufferKind::kUnified});
        Range(step, "src_offset", step.src_offset, size, op.src);
        Range(step, "dst_offset", step.dst_offset, size, op.dst);
        if (op.src == op.dst && step.src_offset < step.dst_offset + size &&
            step.dst_offset < step.src_offset + size) {
          Fail(step, "dst_offset",
               "source and destination ranges overlap; memcpy_dtod's result would be undefined");
        }
        SameDevice(step, "dst", program_.buffers[op.dst].device, program_.buffers[op.src].device,
                   "'" + step.src + "'");
        Copy(step, context, op, program_.buffers[op.src].device, op.src, step.src_offset, op.dst,
             step.dst_offset, succeeds);
        return;
      }
      case K::kMemset:
      case K::kMemset32:
      case K::kMemZero: {
        op.buffer = Buffer(step, context, "buffer", {BufferKind::kDevice, BufferKind::kUnified});
        Range(step, "offset", step.offset, size, op.buffer);
        if (step.kind == K::kMemset32 && succeeds && (size % 4 != 0 || step.offset % 4 != 0)) {
          Fail(step, size % 4 != 0 ? "size" : "offset",
               "memset32 needs a 4-byte aligned offset and a size that is a multiple of 4 "
               "(or an expected error such as 'expect_status: INVALID_ARGUMENT')");
        }
        op.stream = Stream(step, context, "stream", step.stream);
        SameDevice(step, "stream", program_.streams[op.stream].device,
                   program_.buffers[op.buffer].device, "'" + step.buffer + "'");
        if (succeeds) {
          VectorClock& clock = Enqueue(step, context, op.stream);
          Touch(step, context, "buffer", op.buffer, step.offset, size, true,
                streams_[op.stream].timeline, clock, On(op.stream));
        }
        return;
      }
      case K::kWrite:
      case K::kVerify: {
        op.buffer = Buffer(step, context, "buffer", {BufferKind::kHost, BufferKind::kUnified});
        const uint64_t bytes =
            step.data && step.data->kind == HostData::Kind::kLiteral && !step.Has("size")
                ? step.data->bytes.size()
            : step.Has("size") ? size
                               : program_.buffers[op.buffer].size -
                                     std::min(step.offset, program_.buffers[op.buffer].size);
        if (step.data && step.data->kind == HostData::Kind::kLiteral &&
            bytes != step.data->bytes.size()) {
          Fail(step, "size",
               "is " + std::to_string(bytes) + " but 'data' has " +
                   std::to_string(step.data->bytes.size()) + " bytes");
        }
        op.size = bytes;
        Range(step, "offset", step.offset, bytes, op.buffer);
        context.clock.Tick(context.host);
        Touch(step, context, "buffer", op.buffer, step.offset, bytes, step.kind == K::kWrite,
              context.host, context.clock, "on the host");
        return;
      }
      case K::kCreateStream: {
        CheckDevice(step, step.device);
        int slot = -1;
        if (succeeds) {
          slot = static_cast<int>(program_.streams.size());
          program_.streams.push_back({step.name, step.device});
          StreamState state;
          state.device = step.device;
          state.timeline = NewTimeline("stream '" + step.name + "'");
          state.clock = context.clock;
          streams_.push_back(std::move(state));
        }
        op.stream = slot;
        Define(step, context, NameType::kStream, slot,
               succeeds ? "" : CodeName(step.expect_status.front()));
        return;
      }
      case K::kDestroyStream: {
        NameEntry& entry = Resolve(step, context, "stream", step.stream, NameType::kStream);
        op.stream = entry.slot;
        StreamState& stream = streams_[entry.slot];
        if (!context.clock.Covers(stream.timeline, stream.clock.Get(stream.timeline))) {
          Fail(step, "stream",
               "'" + step.stream +
                   "' may still have work queued; TensorFlow always waits for a stream "
                   "(block_host_until_done) before destroying it, so the scenario must too");
        }
        stream.live = false;
        Destroy(step, context, "stream", entry);
        return;
      }
      case K::kCreateEvent: {
        CheckDevice(step, step.device);
        int slot = -1;
        if (succeeds) {
          slot = static_cast<int>(program_.events.size());
          program_.events.push_back({step.name, step.device});
          EventState_ state;
          state.device = step.device;
          events_.push_back(std::move(state));
        }
        op.event = slot;
        Define(step, context, NameType::kEvent, slot,
               succeeds ? "" : CodeName(step.expect_status.front()));
        return;
      }
      case K::kDestroyEvent: {
        NameEntry& entry = Resolve(step, context, "event", step.event, NameType::kEvent);
        op.event = entry.slot;
        Destroy(step, context, "event", entry);
        return;
      }
      case K::kRecordEvent: {
        op.event = Event(step, context, "event", step.event);
        op.stream = Stream(step, context, "stream", step.stream);
        SameDevice(step, "stream", program_.streams[op.stream].device, events_[op.event].device,
                   "'" + step.event + "'");
        if (succeeds) {
          VectorClock& clock = Enqueue(step, context, op.stream);
          EventState_& event = events_[op.event];
          event.recorded = true;
          event.clock = clock;
          event.record_timeline = streams_[op.stream].timeline;
          event.record_epoch = clock.Get(event.record_timeline);
        }
        return;
      }
      case K::kWaitForEvent: {
        op.stream = Stream(step, context, "stream", step.stream);
        op.event = Event(step, context, "event", step.event);
        SameDevice(step, "event", events_[op.event].device, program_.streams[op.stream].device,
                   "'" + step.stream + "'");
        if (succeeds) {
          VectorClock& clock = Enqueue(step, context, op.stream);
          if (events_[op.event].recorded) clock.Join(events_[op.event].clock);
        }
        return;
      }
      case K::kCreateStreamDependency: {
        op.dependent = Stream(step, context, "dependent", step.dependent);
        op.other = Stream(step, context, "other", step.other);
        if (op.dependent == op.other) Fail(step, "other", "a stream cannot depend on itself");
        SameDevice(step, "other", program_.streams[op.other].device,
                   program_.streams[op.dependent].device, "'" + step.dependent + "'");
        if (succeeds) {
          // A fence on `other` now; `dependent`'s later work waits for it.
          VectorClock& other = Enqueue(step, context, op.other);
          const VectorClock snapshot = other;
          VectorClock& dependent = Enqueue(step, context, op.dependent);
          dependent.Join(snapshot);
        }
        return;
      }
      case K::kHoldStream: {
        // The hold opens when the thread that queued it waits. A thread of a concurrent block
        // may end without ever waiting, leaving the stream held until the safety limit.
        if (context.block) {
          Fail(step, "",
               "hold_stream is only allowed outside concurrent blocks: the hold opens when the "
               "thread that queued it waits, and a concurrent thread may end without waiting");
        }
        op.stream = Stream(step, context, "stream", step.stream);
        // Stream work that touches no buffer: it only delays what is queued after it.
        if (succeeds) Enqueue(step, context, op.stream);
        return;
      }
      case K::kBlockHostUntilDone: {
        op.stream = Stream(step, context, "stream", step.stream);
        if (succeeds) {
          context.clock.Join(streams_[op.stream].clock);
          context.clock.Tick(context.host);
          CompleteReadbacks(step, context, op);
        }
        return;
      }
      case K::kBlockHostForEvent: {
        op.event = Event(step, context, "event", step.event);
        if (succeeds) {
          if (events_[op.event].recorded) context.clock.Join(events_[op.event].clock);
          context.clock.Tick(context.host);
          CompleteReadbacks(step, context, op);
        }
        return;
      }
      case K::kSynchronizeAllActivity: {
        CheckDevice(step, step.device);
        if (succeeds) {
          for (std::size_t slot = 0; slot < streams_.size(); ++slot) {
            const StreamState& stream = streams_[slot];
            if (!stream.live || stream.device != step.device) continue;
            const bool other_thread =
                context.block &&
                (!context.block->stream_thread.contains(static_cast<int>(slot)) ||
                 context.block->stream_thread.at(static_cast<int>(slot)) != context.thread);
            if (other_thread) {
              // Another thread may or may not have queued its work yet: only what was queued
              // before the concurrent block is sure to be waited for.
              if (slot < context.block->stream_clocks_at_start.size()) {
                context.clock.Join(context.block->stream_clocks_at_start[slot]);
              }
            } else {
              context.clock.Join(stream.clock);
            }
          }
          context.clock.Tick(context.host);
          CompleteReadbacks(step, context, op);
        }
        return;
      }
      case K::kGetEventStatus: {
        op.event = Event(step, context, "event", step.event);
        const EventState_& event = events_[op.event];
        std::vector<EventState> possible;
        if (!event.recorded) {
          possible = {EventState::kUnknown};
        } else if (context.clock.Covers(event.record_timeline, event.record_epoch)) {
          possible = {EventState::kComplete};
        } else {
          possible = {EventState::kPending, EventState::kComplete};
        }
        static const char* names[] = {"unknown", "pending", "complete", "error"};
        for (EventState state : possible) {
          if (std::find(step.expect_event_state.begin(), step.expect_event_state.end(), state) ==
              step.expect_event_state.end()) {
            std::string list;
            for (EventState p : possible)
              list += std::string(list.empty() ? "" : ", ") + names[static_cast<int>(p)];
            Fail(step, "expect",
                 "the event can be " + std::string(names[static_cast<int>(state)]) +
                     " here (possible: " + list + ")" +
                     (possible.size() > 1
                          ? "; nothing has waited for its record yet, so accept both "
                            "or wait first (block_host_for_event, block_host_until_done)"
                          : ""));
          }
        }
        return;
      }
      case K::kGetStreamStatus: op.stream = Stream(step, context, "stream", step.stream); return;
      case K::kConcurrent: Concurrent(step, context, op); return;
      case K::kRepeat: return;  // unrolled by Sequence
    }
  }

  // memcpy in any direction. `src`/`dst` are -1 for inline data and scratch read-backs.
  void Copy(const Step& step, Context& context, Op& op, int device, int src, uint64_t src_offset,
            int dst, uint64_t dst_offset, bool succeeds) {
    const bool async = !step.stream.empty();
    if (async) {
      op.stream = Stream(step, context, "stream", step.stream);
      SameDevice(step, "stream", program_.streams[op.stream].device, device, "the device buffer");
    }
    if (src >= 0 && dst >= 0 && program_.buffers[src].kind != BufferKind::kDevice &&
        program_.buffers[dst].kind != BufferKind::kDevice && src == dst) {
      Fail(step, "dst", "copies a buffer onto itself");
    }
    if (step.kind == StepKind::kMemcpyDtoH && succeeds) {
      op.readback = static_cast<int>(program_.readbacks.size());
      program_.readbacks.push_back({async ? op.stream : -1});
    }
    if (!succeeds) return;
    int timeline = context.host;
    VectorClock* clock = &context.clock;
    if (async) {
      clock = &Enqueue(step, context, op.stream);
      timeline = streams_[op.stream].timeline;
    } else {
      context.clock.Tick(context.host);
    }
    const std::string on = On(async ? op.stream : -1);
    if (src >= 0)
      Touch(step, context, "src", src, src_offset, op.size, false, timeline, *clock, on);
    if (dst >= 0) Touch(step, context, "dst", dst, dst_offset, op.size, true, timeline, *clock, on);
    if (step.kind == StepKind::kMemcpyDtoH) {
      if (async) {
        pending_[timeline].push_back(
            {op.readback, timeline, clock->Get(timeline), dst, dst_offset, op.size});
      } else {
        op.completes.push_back(op.readback);
      }
    }
  }

  void Concurrent(const Step& step, Context& context, Op& op) {
    Block block;
    block.id = next_block_++;
    for (const StreamState& stream : streams_) block.stream_clocks_at_start.push_back(stream.clock);
    context.clock.Tick(context.host);
    VectorClock joined = context.clock;
    for (std::size_t t = 0; t < step.threads.size(); ++t) {
      Context thread;
      thread.block = &block;
      thread.thread = static_cast<int>(t);
      thread.repetition = context.repetition;
      thread.salt = context.salt;
      thread.host = NewTimeline("thread " + std::to_string(t + 1) + " of the concurrent block at " +
                                LineOf(step.at));
      thread.clock = context.clock;
      thread.clock.Tick(thread.host);
      std::vector<Op> ops;
      Sequence(step.threads[t], thread, ops);
      joined.Join(thread.clock);
      op.threads.push_back(std::move(ops));
    }
    // The block ends when every thread has finished.
    context.clock = joined;
    context.clock.Tick(context.host);
    for (auto& [name, entry] : names_) {
      if (entry.owner_block == block.id) entry.owner_block = entry.owner_thread = -1;
    }
  }

  const ScenarioFile& file_;
  const Scenario& scenario_;
  ErrorList& errors_;
  Program program_;
  std::map<std::string, NameEntry> names_;
  std::vector<StreamState> streams_;
  std::vector<EventState_> events_;
  std::vector<AccessLog> logs_;
  std::map<int, std::deque<PendingReadback>> pending_;  // by timeline, in epoch order
  std::vector<std::string> timeline_names_;
  int next_block_ = 0;
  std::size_t op_count_ = 0;
};

}  // namespace

std::optional<Program> ValidateScenario(const ScenarioFile& file, const Scenario& scenario,
                                        ErrorList& errors) {
  return Validator(file, scenario, errors).Run();
}

}  // namespace conformance::scenario
