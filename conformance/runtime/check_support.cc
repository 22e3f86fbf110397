#include "check_support.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "copy_legs.h"
#include "runtime/profile_support.h"

namespace conformance::runtime_checks {
namespace {

std::string HexSeed(std::uint64_t seed) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(seed));
  return text;
}


}  // namespace

namespace {

// The stable phrase the run layer groups root causes by (with failing_call).
const char* Problem(runtime::ErrorKind kind) {
  switch (kind) {
    case runtime::ErrorKind::kPluginStatus: return "returned an error status";
    case runtime::ErrorKind::kReturnedFalse: return "returned false";
    case runtime::ErrorKind::kOutParamNotWritten: return "out-parameter never written";
    case runtime::ErrorKind::kAllocationFailed: return "returned NULL";
    case runtime::ErrorKind::kMissingCallback: return "callback is NULL";
    case runtime::ErrorKind::kUnsupported: return "unsupported";
    case runtime::ErrorKind::kLoad: return "cannot be loaded";
    case runtime::ErrorKind::kUsage: return "harness usage error";
  }
  return "failed";
}

}  // namespace

void Blame(Details& details, const runtime::Error& error) {
  details["failing_call"] = error.callback.substr(error.callback.rfind('.') + 1);
  details["problem"] = Problem(error.kind);
}

Verdict Verdict::CallFailed(const runtime::Error& error, std::string_view doing, Details details) {
  details["callback"] = error.callback;
  details["error_kind"] = runtime::ErrorKindName(error.kind);
  Blame(details, error);
  if (error.kind == runtime::ErrorKind::kPluginStatus) details["tf_code"] = std::to_string(error.code);
  return Fail(std::string(doing) + " failed: " + error.Describe(), std::move(details));
}

void RunCheck(CheckEnv& env, std::string_view id, const std::function<Verdict()>& body) {
  env.log.Begin(id);
  Verdict verdict = body();
  verdict.details["seed"] = HexSeed(env.seed);
  switch (verdict.kind) {
    case Verdict::Kind::kPass: env.log.Pass(id, std::move(verdict.details)); break;
    case Verdict::Kind::kFail: env.log.Fail(id, std::move(verdict.message), std::nullopt, std::move(verdict.details)); break;
    case Verdict::Kind::kWarning: env.log.Warn(id, std::move(verdict.message), std::move(verdict.details)); break;
    case Verdict::Kind::kNotSupported: env.log.NotSupported(id, std::move(verdict.message)); break;
  }
}

TestUnit MakeRuntimeUnit(std::string name, std::string tier, std::vector<std::string> check_ids,
                         std::function<void(CheckEnv&)> body) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = std::move(tier);
  unit.check_ids = std::move(check_ids);
  unit.prerequisites = {"load.se.create_stream_executor"};
  unit.run = [ids = unit.check_ids, unit_name = unit.name, body = std::move(body)](UnitContext& context) {
    CheckLog log(context.sink, ids);
    auto all = [&](auto&& emit) {
      for (const auto& id : ids) emit(id);
    };
    auto session = runtime::DeviceSession::Open(context.settings.plugin_path, runtime::SessionOptionsFor(context.settings));
    if (!session.ok()) {
      const auto& error = session.error();
      if (error.kind == runtime::ErrorKind::kUnsupported) {
        all([&](const std::string& id) { log.NotSupported(id, error.Describe()); });
      } else {
        all([&](const std::string& id) { log.Skip(id, "cannot bring the plugin's StreamExecutor up: " + error.Describe()); });
      }
      return;
    }
    auto device = session.value()->GetDevice(0);
    if (!device.ok()) {
      all([&](const std::string& id) { log.Skip(id, "cannot create device 0: " + device.error().Describe()); });
      return;
    }
    CheckEnv env{context.settings, *session.value(), *device.value(), log, MixSeed(context.settings.seed, unit_name)};
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

std::vector<std::byte> SeededBytes(std::uint64_t seed, std::size_t size) {
  std::vector<std::byte> bytes(size);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < size; i += 8) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (std::size_t b = 0; b < 8 && i + b < size; ++b) bytes[i + b] = static_cast<std::byte>(z >> (8 * b));
  }
  return bytes;
}

std::optional<std::string> FirstMismatch(const std::byte* actual, const std::byte* expected, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    if (actual[i] != expected[i]) {
      char text[96];
      std::snprintf(text, sizeof text, "byte %zu of %zu: expected 0x%02x, got 0x%02x", i, size,
                    static_cast<unsigned>(expected[i]), static_cast<unsigned>(actual[i]));
      return std::string(text);
    }
  }
  return std::nullopt;
}

runtime::CallStatus WaitIdle(runtime::Stream& stream, bool device_wide) {
  auto reached = std::make_shared<std::atomic<bool>>(false);
  auto barrier = stream.HostCallback([reached] {
    reached->store(true);
    return runtime::HostCallbackOutcome{};
  });
  runtime::CallStatus first = stream.BlockHostUntilDone();
  auto remember = [&first](runtime::CallStatus status) {
    if (first.ok() && !status.ok()) first = std::move(status);
  };
  if (auto event = stream.device()->CreateEvent(); event.ok()) {
    remember(stream.Record(*event));
    remember(event->BlockHost());
  } else {
    remember(event.error());
  }
  if (device_wide) remember(stream.device()->SynchronizeAllActivity());
  if (barrier.ok()) {
    // Bounded: a plugin that never runs the callback is caught by the callback checks.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!reached->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  // A host_callback that fails is the callback checks' finding, not a reason to call the
  // stream busy: the other waits above already ordered the host behind the stream.
  return first;
}

SlowWork QueueSlowWork(runtime::Stream& stream, int milliseconds) {
  auto finished = std::make_shared<std::atomic<bool>>(false);
  auto ticket = stream.HostCallback([finished, milliseconds] {
    std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
    finished->store(true);
    return runtime::HostCallbackOutcome{};
  });
  return SlowWork{finished, ticket.status()};
}

runtime::CallStatus WriteDevice(runtime::Stream& stream, const runtime::DeviceRange& range,
                                const std::vector<std::byte>& bytes) {
  return CopyIn(stream, range, bytes);
}

runtime::CallResult<std::vector<std::byte>> ReadDevice(runtime::Stream& stream, const runtime::DeviceRange& range) {
  return CopyOut(stream, range);
}

std::string Describe(SE_EventStatus status) { return runtime::EventStatusName(status); }

}  // namespace conformance::runtime_checks
