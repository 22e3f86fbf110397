#include "validate/se_strict.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/no_device.h"
#include "validate/header_generation.h"
#include "validate/memory_lifetime.h"
#include "validate/struct_overflow_facts.h"
#include "validate/tf_messages.h"

namespace conformance::validate {
namespace {

constexpr int kPoisonDeviceCount = -0x5EED;
constexpr int kPoisonOrdinal = -0x0D0D;
constexpr int kMaxDevicesProbed = 64;

struct StructCheck {
  const char* id;
  const char* struct_name;
};

// Generations whose `struct_name` has struct_size `value`.
std::set<std::string> GenerationsWithSize(const std::string& struct_name, std::uint64_t value) {
  std::set<std::string> labels;
  for (const auto& generation : HeaderGenerations()) {
    if (generation.layout->Struct(struct_name).struct_size_value == value)
      labels.insert(generation.label);
  }
  return labels;
}

std::string KnownSizes(const std::string& struct_name) {
  std::set<std::size_t> sizes;
  for (const auto& generation : HeaderGenerations()) {
    sizes.insert(generation.layout->Struct(struct_name).struct_size_value);
  }
  std::string text;
  for (auto size : sizes) text += (text.empty() ? "" : ", ") + std::to_string(size);
  return text;
}

// Records the candidate generations of one written struct_size for the consistency check.
using Candidates = std::map<std::string, std::set<std::string>>;

void CheckStructSizeWritten(CheckLog& log, const StructCheck& check, const StructBuffer& buffer,
                            Candidates& candidates) {
  const std::uint64_t value = buffer.StructSize();
  if (value == 0) {
    log.Skip(check.id, std::string(check.struct_name) +
                           ".struct_size is 0, which TensorFlow itself rejects (see the "
                           "TensorFlow check)");
    return;
  }
  if (value == kPoisonStructSize) {
    log.Warn(
        check.id,
        std::string("the plugin never wrote ") + check.struct_name +
            ".struct_size (TensorFlow pre-fills it, so it loads, but the plugin's header version "
            "is unknowable)");
    return;
  }
  auto generations = GenerationsWithSize(check.struct_name, value);
  if (generations.empty()) {
    // TensorFlow only rejects 0, so an unknown value (often sizeof instead of *_STRUCT_SIZE)
    // loads the same: a warning, as the catalogue's consequence says.
    log.Warn(check.id, std::string(check.struct_name) + ".struct_size is " + std::to_string(value) +
                           ", which no TensorFlow header generation has (known: " +
                           KnownSizes(check.struct_name) +
                           "); TensorFlow only rejects 0, so it loads, but the plugin's header "
                           "version is unknown");
    return;
  }
  std::string labels;
  for (const auto& label : generations) labels += (labels.empty() ? "" : "; ") + label;
  candidates[check.struct_name] = generations;
  log.Pass(check.id, {{"struct_size", std::to_string(value)}, {"generations", labels}});
}

void CheckHeaderGeneration(CheckLog& log, const Candidates& candidates) {
  std::set<std::string> common;
  bool first = true;
  for (const auto& [name, generations] : candidates) {
    if (first) {
      common = generations;
      first = false;
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(common.begin(), common.end(), generations.begin(), generations.end(),
                          std::inserter(both, both.begin()));
    if (both.empty()) {
      std::string evidence;
      for (const auto& [struct_name, labels] : candidates) {
        evidence += (evidence.empty() ? "" : ", ") + struct_name + " → " + *labels.begin();
      }
      log.Fail("load.se.header_generation",
               "struct_size values come from different TensorFlow header generations: " + evidence);
      return;
    }
    common = std::move(both);
  }
  if (first) {
    log.Skip("load.se.header_generation", "the plugin wrote no recognisable struct_size");
    return;
  }
  // The newest candidate is what the plugin most likely used (sizes identical across older ones).
  log.Pass("load.se.header_generation", {{"generation", *common.begin()}});
}

// Bytes `buffer` got past its end, as "8 bytes past the end of the 288-byte SP_StreamExecutor".
std::string PastEnd(const StructBuffer& buffer) {
  return std::to_string(buffer.BytesWrittenPastEnd()) + " bytes past the end of the " +
         std::to_string(buffer.layout().size_of) + "-byte " + buffer.layout().name;
}

// One struct the plugin wrote past: who filled it and how far it went.
struct Overrun {
  std::string struct_name;
  std::string call;
  std::size_t bytes;
  PastEndValue value;
};

Overrun OverrunOf(const StructBuffer& buffer, std::string call) {
  return {buffer.layout().name, std::move(call), buffer.BytesWrittenPastEnd(),
          buffer.ZeroWrittenPastEnd() ? PastEndValue::kWithZeros : PastEndValue::kNonZero};
}

// The measured release's verdict on every overrun (struct_overflow_facts.h): all survived, a
// warning stating the facts; any one measured to go wrong, a failure naming what TensorFlow did;
// any one the profile's release was not measured with, the failure stands as it is.
void Judge(CheckLog& log, const Profile& profile, const std::vector<Overrun>& overruns,
           const std::string& message, const std::string& first_call) {
  std::string survived, consequences;
  bool unmeasured = false;
  for (const Overrun& overrun : overruns) {
    const auto verdict = JudgeStructOverflow(profile.name, overrun.struct_name, overrun.call,
                                             overrun.bytes, overrun.value);
    if (!verdict) {
      unmeasured = true;
    } else if (verdict->survives) {
      survived += (survived.empty() ? "" : "; ") + verdict->measured;
    } else {
      consequences += (consequences.empty() ? "" : "; ") + verdict->measured;
    }
  }
  const Details root_cause = {{"failing_call", first_call},
                              {"problem", "wrote past the end of the struct"}};
  if (!unmeasured && consequences.empty()) {
    Details details = root_cause;
    details["measured"] = survived;
    log.Warn("load.se.struct_overflow", survived + "; so only a warning: " + message, details);
    return;
  }
  log.Fail("load.se.struct_overflow",
           consequences.empty() ? message : consequences + ": " + message, std::nullopt,
           root_cause);
}

// Runs on a session pre-filled as TensorFlow does (its real struct_size), so a plugin that
// checks struct_size and refuses a smaller core never writes past the end here either. The
// tables grew between TensorFlow releases, so writing past them means newer headers; SP_Device
// has one size in every release (TensorFlow keeps it on its stack), so writing past it is the
// plugin's own bug whatever headers it used.
void CheckOverflow(CheckLog& log, SeSession& session) {
  std::string problems, first_call;
  std::vector<Overrun> overruns;
  const std::pair<StructBuffer*, const char*> filled_by[] = {
      {&session.platform(), "SE_InitPlugin"},
      {&session.platform_fns(), "SE_InitPlugin"},
      {&session.device_fns(), "create_device_fns"},
      {&session.stream_executor(), "create_stream_executor"},
      {&session.timer_fns(), "create_timer_fns"}};
  for (const auto& [buffer, call] : filled_by) {
    if (buffer->BytesWrittenPastEnd() > 0) {
      problems += (problems.empty() ? "" : "; ") + PastEnd(*buffer);
      overruns.push_back(OverrunOf(*buffer, call));
      if (first_call.empty()) first_call = call;
    }
  }
  std::string device_problem;
  // No device: TensorFlow creates none, so there is no SP_Device to overflow.
  if (session.platform_fns().Pointer("create_device") != nullptr && !session.ReportsNoDevice()) {
    StructBuffer device = session.NewDeviceBuffer();
    OwnedStatus status;
    session.CreateDevice(0, device, status);
    if (status.ok()) {
      if (device.BytesWrittenPastEnd() > 0) {
        device_problem = PastEnd(device);
        overruns.push_back(OverrunOf(device, "create_device"));
      }
      session.DestroyDevice(device);
    }
  }
  if (overruns.empty()) {
    log.Pass("load.se.struct_overflow");
    return;
  }
  std::string message;
  if (!problems.empty()) {
    const GenerationInference built =
        InferGeneration({{"SP_StreamExecutor", session.stream_executor().StructSize()},
                         {"SP_Platform", session.platform().StructSize()}});
    message = "the plugin wrote " + problems + " of " + session.profile().generation +
              " headers: it was built against newer headers (" + built.Headers() +
              ") than this TensorFlow (" + session.profile().headers +
              "), which reads its callbacks at the wrong offsets; build against " +
              session.profile().headers + " headers to support this release";
  }
  if (!device_problem.empty()) {
    if (first_call.empty()) first_call = "create_device";
    message += (message.empty() ? "" : "; and ") + std::string("create_device wrote ") +
               device_problem +
               ", which is that size in every TensorFlow release: the write lands on "
               "TensorFlow's stack next to it; write only SP_Device's own fields";
  }
  Judge(log, session.profile(), overruns, message, first_call);
}

// Core never reads SP_Device.ordinal (it keeps its own); only the plugin's callbacks can. A
// value the plugin wrote is one it means to read back, so a wrong one fails; one it never
// wrote is TensorFlow's pre-fill 0, harmless unless the callbacks rely on it: a warning.
void CheckOrdinal(CheckLog& log, const std::string& wrong, const std::string& unwritten) {
  if (!wrong.empty()) {
    log.Fail("load.se.device.ordinal",
             "create_device wrote an SP_Device.ordinal other than the requested one: " + wrong +
                 "; the plugin's callbacks that pick the device by it address another device",
             std::nullopt,
             {{"failing_call", "create_device"}, {"problem", "wrong ordinal written"}});
  } else if (!unwritten.empty()) {
    log.Warn(
        "load.se.device.ordinal",
        "create_device never wrote SP_Device.ordinal for " + unwritten +
            "; TensorFlow pre-fills 0 and never reads it, so this only matters if the plugin's "
            "callbacks "
            "pick the device by it (runtime.devices.independent checks that devices stay apart)");
  } else {
    log.Pass("load.se.device.ordinal");
  }
}

// device_memory_usage of a created device answers (true); a NULL callback is another check's.
bool QueriesMemory(SeSession& session, StructBuffer& device) {
  using MemoryUsageFn = TF_Bool (*)(const SP_Device*, int64_t*, int64_t*);
  void* callback = session.stream_executor().Pointer("device_memory_usage");
  if (callback == nullptr) return true;
  int64_t free_bytes = 0;
  int64_t total_bytes = 0;
  return reinterpret_cast<MemoryUsageFn>(callback)(static_cast<const SP_Device*>(device.data()),
                                                   &free_bytes, &total_bytes);
}

void CheckDevices(CheckLog& log, SeSession& session) {
  if (session.platform_fns().Pointer("get_device_count") == nullptr ||
      session.platform_fns().Pointer("create_device") == nullptr) {
    const char* reason = "get_device_count or create_device is not set";
    for (const char* prefix : {"load.se.device_count.", "load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, reason);
    }
    return;
  }
  int count = kPoisonDeviceCount;
  OwnedStatus status;
  log.Begin("load.se.device_count.written");
  session.GetDeviceCount(&count, status);
  if (!status.ok()) {
    for (const char* prefix : {"load.se.device_count.", "load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, "get_device_count fails (see load.se.get_device_count)");
    }
    return;
  }
  // Both count failures are blamed on get_device_count: the one callback to fix, and what the
  // consequence oracle matches with TensorFlow listing no device of the plugin.
  if (count == kPoisonDeviceCount) {
    log.Fail("load.se.device_count.written",
             "get_device_count returned without writing *device_count", {},
             {{"failing_call", "get_device_count"}, {"problem", "device count not written"}});
    for (const char* prefix : {"load.se.device_count.", "load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, "the device count is unknown");
    }
    return;
  }
  log.Pass("load.se.device_count.written");
  if (count == 0) {
    // TensorFlow loads such a plugin and registers no device: the state of a vendor's CI runner
    // without the hardware (DirectML without D3D12). Nothing is wrong with the plugin that the
    // suite can see; the device tiers have nothing to drive (run/run_conformance.cc).
    log.NotSupported("load.se.device_count.positive", std::string(kNoDeviceReason));
    for (const char* prefix : {"load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, "no device: get_device_count reported 0");
    }
    return;
  }
  if (count < 0) {
    log.Fail("load.se.device_count.positive",
             "get_device_count reported " + std::to_string(count) + " devices", {},
             {{"failing_call", "get_device_count"}, {"problem", "negative device count"}});
    for (const char* prefix : {"load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, "no device: get_device_count reported a negative count");
    }
    return;
  }
  log.Pass("load.se.device_count.positive");

  std::string creation_problems, ordinal_wrong, ordinal_unwritten, handle_problems, string_problems;
  // TensorFlow asks each device it creates for its memory (device_memory_usage) and refuses the
  // first that cannot say: UNKNOWN "Failed to query available memory for PluggableDevice N".
  std::optional<int> memory_unqueryable;
  // TensorFlow creates every device with its first eager context and dies with the first
  // failing ordinal's status: that status is what TensorFlow reports.
  std::optional<int> first_failure_code;
  std::string first_failure_message;
  bool created = false;
  for (int ordinal = 0; ordinal < std::min(count, kMaxDevicesProbed); ++ordinal) {
    StructBuffer device = session.NewDeviceBuffer();
    device.Set<std::int32_t>("ordinal", kPoisonOrdinal);
    status.Reset();
    session.CreateDevice(ordinal, device, status);
    const std::string label = "ordinal " + std::to_string(ordinal);
    if (!status.ok() && ordinal == 0) {
      // TensorFlow's own check (load.se.create_device) reports this one.
      for (const char* prefix : {"load.se.devices.", "load.se.device."}) {
        log.SkipRemaining(prefix, "create_device fails for ordinal 0 (see load.se.create_device)");
      }
      return;
    }
    if (!status.ok()) {
      creation_problems +=
          (creation_problems.empty() ? "" : "; ") + label + ": " + status.message();
      if (!first_failure_code) {
        first_failure_code = status.code();
        first_failure_message = status.message();
      }
      continue;
    }
    created = true;
    if (!memory_unqueryable && !QueriesMemory(session, device)) memory_unqueryable = ordinal;
    if (int written = device.Get<std::int32_t>("ordinal"); written == kPoisonOrdinal) {
      ordinal_unwritten += (ordinal_unwritten.empty() ? "" : ", ") + label;
    } else if (written != ordinal) {
      ordinal_wrong += (ordinal_wrong.empty() ? "" : "; ") + label + " → SP_Device.ordinal " +
                       std::to_string(written);
    }
    if (device.Pointer("device_handle") == nullptr)
      handle_problems += (handle_problems.empty() ? "" : ", ") + label;
    std::map<std::string, std::string> snapshots;
    for (const char* field : {"hardware_name", "device_vendor", "pci_bus_id"}) {
      if (const char* text = static_cast<const char*>(device.Pointer(field)))
        snapshots[field] = text;
    }
    ScribbleOverDeadStack();
    for (const auto& [field, snapshot] : snapshots) {
      const std::string problem = StringLifetimeProblem(
          static_cast<const char*>(device.Pointer(field)), snapshot, __builtin_frame_address(0));
      if (!problem.empty())
        string_problems += (string_problems.empty() ? "" : "; ") + field + " " + problem;
    }
    session.DestroyDevice(device);
  }
  if (creation_problems.empty()) {
    log.Pass("load.se.devices.creatable");
  } else {
    log.Fail("load.se.devices.creatable", "create_device failed for " + creation_problems,
             first_failure_code, {{"tensorflow_message", first_failure_message}});
  }
  if (!created) {
    log.Skip("load.se.devices.memory_queryable", "no device could be created");
  } else if (memory_unqueryable) {
    const std::string device = "PluggableDevice " + std::to_string(*memory_unqueryable);
    log.Fail("load.se.devices.memory_queryable", "Failed to query available memory for " + device,
             TF_UNKNOWN,
             {{"failing_call", "device_memory_usage"},
              {"problem", "device_memory_usage returned false for ordinal " +
                              std::to_string(*memory_unqueryable)}});
  } else {
    log.Pass("load.se.devices.memory_queryable");
  }
  if (created || count > 0) {
    CheckOrdinal(log, ordinal_wrong, ordinal_unwritten);
    if (handle_problems.empty()) {
      log.Pass("load.se.device.handle");
    } else {
      // TensorFlow never reads device_handle (it is the plugin's own field): NULL is legal.
      log.Warn("load.se.device.handle",
               "create_device left SP_Device.device_handle NULL for " + handle_problems +
                   "; TensorFlow never reads it, so this is fine if the plugin keeps its device "
                   "state elsewhere "
                   "(runtime.devices.independent checks that devices stay apart)");
    }
    log.Expect("load.se.device.strings_stable", string_problems.empty(),
               "SP_Device." + string_problems);
  }
  log.SkipRemaining("load.se.device.", "no device could be created");
}

// struct_size written or not can only be told from TensorFlow's own pre-fill with a poisoned
// one, and a plugin may read struct_size to pick its layout (refusing a core smaller than its
// headers). So a separate probe session with poisoned sizes answers only that question; every
// other check runs in a session pre-filled exactly as TensorFlow does.
Candidates ProbeStructSizes(SeInitPluginFn init, const Profile& profile, CheckLog& log) {
  Candidates candidates;
  SeSession probe(profile, Prefill::kPoisonedSizes);
  OwnedStatus status;
  probe.Init(init, status);
  if (!status.ok()) {
    for (const char* id :
         {"load.se.platform.struct_size_written", "load.se.platform_fns.struct_size_written",
          "load.se.device_fns.struct_size_written", "load.se.stream_executor.struct_size_written",
          "load.se.device.struct_size_written"}) {
      log.Skip(id, "SE_InitPlugin failed when struct_size was pre-filled with a poison value: " +
                       status.message());
    }
    return candidates;
  }
  CheckStructSizeWritten(log, {"load.se.platform.struct_size_written", "SP_Platform"},
                         probe.platform(), candidates);
  CheckStructSizeWritten(log, {"load.se.platform_fns.struct_size_written", "SP_PlatformFns"},
                         probe.platform_fns(), candidates);
  if (probe.platform_fns().Pointer("create_device_fns") != nullptr) {
    status.Reset();
    probe.CreateDeviceFns(status);
    if (status.ok()) {
      CheckStructSizeWritten(log, {"load.se.device_fns.struct_size_written", "SP_DeviceFns"},
                             probe.device_fns(), candidates);
    }
  }
  if (probe.platform_fns().Pointer("create_stream_executor") != nullptr) {
    status.Reset();
    probe.CreateStreamExecutor(status);
    if (status.ok()) {
      CheckStructSizeWritten(log,
                             {"load.se.stream_executor.struct_size_written", "SP_StreamExecutor"},
                             probe.stream_executor(), candidates);
    }
  }
  log.SkipRemaining("load.se.device_fns.struct_size_written",
                    "create_device_fns is not set or failed");
  log.SkipRemaining("load.se.stream_executor.struct_size_written",
                    "create_stream_executor is not set or failed");
  if (probe.platform_fns().Pointer("create_device") != nullptr && !probe.ReportsNoDevice()) {
    StructBuffer device = probe.NewDeviceBuffer();
    status.Reset();
    probe.CreateDevice(0, device, status);
    if (status.ok()) {
      CheckStructSizeWritten(log, {"load.se.device.struct_size_written", "SP_Device"}, device,
                             candidates);
      probe.DestroyDevice(device);
    }
  }
  log.SkipRemaining("load.se.device.struct_size_written", "no device could be created");
  return candidates;
}

}  // namespace

std::vector<std::string> SeStrictCheckIds() {
  return {"load.se.platform.struct_size_written",
          "load.se.platform_fns.struct_size_written",
          "load.se.device_fns.struct_size_written",
          "load.se.stream_executor.struct_size_written",
          "load.se.struct_overflow",
          "load.se.device_count.written",
          "load.se.device_count.positive",
          "load.se.device.struct_size_written",
          "load.se.devices.creatable",
          "load.se.devices.memory_queryable",
          "load.se.device.ordinal",
          "load.se.device.handle",
          "load.se.device.strings_stable",
          "load.se.header_generation",
          "load.se.platform.strings_stable"};
}

void RunSeStrictChecks(SeInitPluginFn init, const Profile& profile, CheckLog& log) {
  const Candidates candidates = ProbeStructSizes(init, profile, log);
  CheckHeaderGeneration(log, candidates);

  SeSession session(profile, Prefill::kTensorFlow);
  OwnedStatus status;
  session.Init(init, status);
  if (!status.ok()) {
    log.SkipRemaining("load.se.", "SE_InitPlugin failed (see load.se.init)");
    return;
  }
  const char* name = static_cast<const char*>(session.platform().Pointer("name"));
  const char* type = static_cast<const char*>(session.platform().Pointer("type"));
  const std::string name_snapshot = name ? name : "";
  const std::string type_snapshot = type ? type : "";

  if (session.platform_fns().Pointer("create_device_fns") != nullptr) {
    status.Reset();
    session.CreateDeviceFns(status);
  }
  if (session.platform_fns().Pointer("create_stream_executor") != nullptr) {
    status.Reset();
    session.CreateStreamExecutor(status);
  }
  CheckOverflow(log, session);
  CheckDevices(log, session);

  ScribbleOverDeadStack();
  std::string problems;
  for (const auto& [field, pointer, snapshot] :
       {std::tuple{"name", name, name_snapshot}, std::tuple{"type", type, type_snapshot}}) {
    const std::string problem =
        StringLifetimeProblem(pointer, snapshot, __builtin_frame_address(0));
    if (!problem.empty())
      problems += (problems.empty() ? "SP_Platform." : "; SP_Platform.") + std::string(field) +
                  " " + problem;
  }
  log.Expect("load.se.platform.strings_stable", problems.empty(), problems);
}

}  // namespace conformance::validate
