#include "check_support.h"

#include <chrono>
#include <cstdio>

#include "model/tensorflow_reach.h"
#include "runtime/blame.h"
#include "runtime/copy_legs.h"
#include "runtime/problems.h"
#include "runtime/profile_support.h"

namespace conformance::runtime_checks {
namespace {

// The longest SlowWork holds a stream when the check's thread keeps running (it spins): below
// the checks' own deadlines (3 s for an event to complete).
constexpr auto kHoldLimit = std::chrono::seconds(2);

std::string HexSeed(std::uint64_t seed) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(seed));
  return text;
}

}  // namespace

namespace {}  // namespace

void Blame(Details& details, const runtime::Error& error) {
  for (auto& [key, value] : runtime::BlameOf(error)) details[key] = value;
}

Verdict Verdict::CallFailed(const runtime::Error& error, std::string_view doing, Details details) {
  details["callback"] = error.callback;
  details["error_kind"] = runtime::ErrorKindName(error.kind);
  Blame(details, error);
  if (error.kind == runtime::ErrorKind::kPluginStatus)
    details["tf_code"] = std::to_string(error.code);
  return Fail(std::string(doing) + " failed: " + error.Describe(), std::move(details));
}

namespace {

// The callback each C++ check is about, and the problem phrase its own failures mean. A failure
// that names no culprit (no call failed, no leg was wrong) is its subject's defect, so the run
// layer groups it with every other check that blames the same callback the same way.
struct Subject {
  std::string_view check, callback, problem;
};
constexpr Subject kSubjects[] = {
    {"runtime.memory.allocate.sizes", "allocate", "wrong allocation"},
    {"runtime.memory.allocate.size_written", "allocate", "out-parameter never written"},
    {"runtime.memory.allocate.alignment", "allocate", "misaligned memory"},
    {"runtime.memory.host_allocate.alignment", "host_memory_allocate", "misaligned memory"},
    {runtime::kHostAllocationSizesCheck, "host_memory_allocate", runtime::kHostAllocationShort},
    {"runtime.memory.allocate.beyond_capacity", "allocate", "impossible allocation succeeded"},
    {"runtime.devices.independent", "allocate", "devices share memory"},
    {"runtime.stats.allocator", "get_allocator_stats", "wrong statistics"},
    {"runtime.stats.memory_usage", "device_memory_usage", "wrong statistics"},
    {"runtime.sync.block_host_until_done", "block_host_until_done", runtime::kLateCompletion},
    {"runtime.sync.synchronize_all_activity", "synchronize_all_activity", runtime::kLateCompletion},
    {"runtime.event.block_host", "block_host_for_event", runtime::kLateCompletion},
    {"runtime.callback.order", "host_callback", "callback out of stream order"},
    {"runtime.stream.scale", "create_stream", "too few streams"},
    {"runtime.stream.status", "get_stream_status", "wrong stream status"},
};

void BlameSubject(std::string_view id, Details& details) {
  if (details.contains("failing_call")) return;
  for (const Subject& subject : kSubjects) {
    if (subject.check != id) continue;
    details["failing_call"] = std::string(subject.callback);
    details["problem"] = std::string(subject.problem);
  }
}

}  // namespace

void RunCheck(CheckEnv& env, std::string_view id, const std::function<Verdict()>& body) {
  env.log.Begin(id);
  Verdict verdict = body();
  if (verdict.kind == Verdict::Kind::kFail) {
    BlameSubject(id, verdict.details);
    // Whether TensorFlow reaches the defect can depend on it (model/tensorflow_reach.h).
    verdict.details[std::string(kUsesBfcDetail)] =
        env.session.platform().use_bfc_allocator != 0 ? "1" : "0";
  }
  verdict.details["seed"] = HexSeed(env.seed);
  switch (verdict.kind) {
    case Verdict::Kind::kPass: env.log.Pass(id, std::move(verdict.details)); break;
    case Verdict::Kind::kFail:
      env.log.Fail(id, std::move(verdict.message), std::nullopt, std::move(verdict.details));
      break;
    case Verdict::Kind::kWarning:
      env.log.Warn(id, std::move(verdict.message), std::move(verdict.details));
      break;
    case Verdict::Kind::kNotSupported: env.log.NotSupported(id, std::move(verdict.message)); break;
    case Verdict::Kind::kSkipped: env.log.Skip(id, std::move(verdict.message)); break;
  }
}

TestUnit MakeRuntimeUnit(std::string name, std::string tier, std::vector<std::string> check_ids,
                         std::function<void(CheckEnv&)> body) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = std::move(tier);
  unit.check_ids = std::move(check_ids);
  unit.prerequisites = {"load.se.create_stream_executor"};
  unit.run = [ids = unit.check_ids, unit_name = unit.name,
              body = std::move(body)](UnitContext& context) {
    CheckLog log(context.sink, ids);
    auto all = [&](auto&& emit) {
      for (const auto& id : ids) emit(id);
    };
    auto session = runtime::DeviceSession::Open(context.settings.plugin_path,
                                                runtime::SessionOptionsFor(context.settings));
    if (!session.ok()) {
      const auto& error = session.error();
      if (error.kind == runtime::ErrorKind::kUnsupported) {
        all([&](const std::string& id) { log.NotSupported(id, error.Describe()); });
      } else {
        all([&](const std::string& id) {
          log.Skip(id, "cannot bring the plugin's StreamExecutor up: " + error.Describe());
        });
      }
      return;
    }
    auto device = session.value()->GetDevice(0);
    if (!device.ok()) {
      all([&](const std::string& id) {
        log.Skip(id, "cannot create device 0: " + device.error().Describe());
      });
      return;
    }
    CheckEnv env{context.settings, *session.value(), *device.value(), log,
                 MixSeed(context.settings.seed, unit_name)};
    body(env);
    log.SkipRemaining("", "not reached");
  };
  return unit;
}

std::uint64_t MixSeed(std::uint64_t seed, std::string_view salt) {
  // FNV-1a over the salt, folded into the seed: stable across runs and machines.
  std::uint64_t hash = 1469598103934665603ull ^ seed;
  for (char c : salt) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

SlowWork QueueSlowWork(runtime::Stream& stream, int milliseconds) {
  return runtime::HoldStream(stream, std::chrono::milliseconds(milliseconds), kHoldLimit);
}

Verdict CallbackNeverRan(const std::string& what) {
  return Verdict::Fail(
      "host_callback returned true but never ran " + what +
          " (TensorFlow waits for such a callback forever)",
      {{"failing_call", "host_callback"}, {"problem", runtime::kCallbackNeverRan}});
}

Verdict CallbackRanTwice(const std::string& what) {
  return Verdict::Fail(
      "host_callback ran " + what +
          " more than once (TensorFlow's callback frees its context the first "
          "time: the second call uses freed memory)",
      {{"failing_call", "host_callback"}, {"problem", runtime::kCallbackRanTwice}});
}

std::optional<Verdict> SlowWorkNeverRan(CheckEnv& env, const SlowWork& slow) {
  if (slow.ticket == 0 || slow.finished->load()) return std::nullopt;
  if (env.session.host_callbacks().Record(slow.ticket).invocations > 0) return std::nullopt;
  return CallbackNeverRan("the callback queued as slow work before the call under test");
}

runtime::CallStatus WriteDevice(runtime::Stream& stream, const runtime::DeviceRange& range,
                                const std::vector<std::byte>& bytes) {
  return runtime::CopyIn(stream, range, bytes);
}

runtime::CallResult<std::vector<std::byte>> ReadDevice(runtime::Stream& stream,
                                                       const runtime::DeviceRange& range) {
  return runtime::CopyOut(stream, range);
}

std::string Describe(SE_EventStatus status) { return runtime::EventStatusName(status); }

}  // namespace conformance::runtime_checks
