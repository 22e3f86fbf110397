#include "validate/se_strict.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "validate/memory_lifetime.h"
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
    if (generation.layout->Struct(struct_name).struct_size_value == value) labels.insert(generation.label);
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
    log.Skip(check.id, std::string(check.struct_name) + ".struct_size is 0, which TensorFlow itself rejects (see the "
                           "TensorFlow check)");
    return;
  }
  if (value == kPoisonStructSize) {
    log.Warn(check.id, std::string("the plugin never wrote ") + check.struct_name +
                           ".struct_size (TensorFlow pre-fills it, so it loads, but the plugin's header version "
                           "is unknowable)");
    return;
  }
  auto generations = GenerationsWithSize(check.struct_name, value);
  if (generations.empty()) {
    log.Fail(check.id, std::string(check.struct_name) + ".struct_size is " + std::to_string(value) +
                           ", which no TensorFlow header generation has (known: " + KnownSizes(check.struct_name) +
                           ")");
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

void CheckOverflow(CheckLog& log, SeSession& session) {
  std::string problems;
  for (StructBuffer* buffer : {&session.platform(), &session.platform_fns(), &session.device_fns(),
                               &session.stream_executor(), &session.timer_fns()}) {
    if (std::size_t past = buffer->BytesWrittenPastEnd(); past > 0) {
      problems += (problems.empty() ? "" : "; ") + std::to_string(past) + " bytes past the end of the " +
                  std::to_string(buffer->layout().size_of) + "-byte " + buffer->layout().name;
    }
  }
  if (problems.empty()) {
    log.Pass("load.se.struct_overflow");
  } else {
    log.Fail("load.se.struct_overflow", "the plugin wrote " + problems + " of " + session.profile().generation +
                                            " headers: it was built against newer headers than this TensorFlow");
  }
}

void CheckDevices(CheckLog& log, SeSession& session, Candidates& candidates) {
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
  if (!log.Expect("load.se.device_count.written", count != kPoisonDeviceCount,
                  "get_device_count returned without writing *device_count")) {
    for (const char* prefix : {"load.se.device_count.", "load.se.devices.", "load.se.device."}) {
      log.SkipRemaining(prefix, "the device count is unknown");
    }
    return;
  }
  log.Expect("load.se.device_count.positive", count > 0,
             "get_device_count reported " + std::to_string(count) + " devices");

  std::string creation_problems, ordinal_problems, handle_problems, string_problems;
  bool size_checked = false;
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
      creation_problems += (creation_problems.empty() ? "" : "; ") + label + ": " + status.message();
      continue;
    }
    if (!size_checked) {
      CheckStructSizeWritten(log, {"load.se.device.struct_size_written", "SP_Device"}, device, candidates);
      size_checked = true;
    }
    if (int written = device.Get<std::int32_t>("ordinal"); written != ordinal) {
      ordinal_problems += (ordinal_problems.empty() ? "" : "; ") + label + " → SP_Device.ordinal " +
                          (written == kPoisonOrdinal ? std::string("never written") : std::to_string(written));
    }
    if (device.Pointer("device_handle") == nullptr) handle_problems += (handle_problems.empty() ? "" : ", ") + label;
    std::map<std::string, std::string> snapshots;
    for (const char* field : {"hardware_name", "device_vendor", "pci_bus_id"}) {
      if (const char* text = static_cast<const char*>(device.Pointer(field))) snapshots[field] = text;
    }
    ScribbleOverDeadStack();
    for (const auto& [field, snapshot] : snapshots) {
      const std::string problem =
          StringLifetimeProblem(static_cast<const char*>(device.Pointer(field)), snapshot);
      if (!problem.empty()) string_problems += (string_problems.empty() ? "" : "; ") + field + " " + problem;
    }
    session.DestroyDevice(device);
  }
  log.Expect("load.se.devices.creatable", creation_problems.empty(), "create_device failed for " + creation_problems);
  if (!size_checked) log.Skip("load.se.device.struct_size_written", "no device could be created");
  if (size_checked || count > 0) {
    log.Expect("load.se.device.ordinal", ordinal_problems.empty(),
               "create_device did not copy the requested ordinal: " + ordinal_problems);
    log.Expect("load.se.device.handle", handle_problems.empty(),
               "create_device left SP_Device.device_handle NULL for " + handle_problems);
    log.Expect("load.se.device.strings_stable", string_problems.empty(), "SP_Device." + string_problems);
  }
  log.SkipRemaining("load.se.device.", "no device could be created");
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
          "load.se.device.ordinal",
          "load.se.device.handle",
          "load.se.device.strings_stable",
          "load.se.header_generation",
          "load.se.platform.strings_stable"};
}

void RunSeStrictChecks(SeInitPluginFn init, const Profile& profile, CheckLog& log) {
  SeSession session(profile, Prefill::kPoisonedSizes);
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

  Candidates candidates;
  CheckStructSizeWritten(log, {"load.se.platform.struct_size_written", "SP_Platform"}, session.platform(), candidates);
  CheckStructSizeWritten(log, {"load.se.platform_fns.struct_size_written", "SP_PlatformFns"}, session.platform_fns(),
                         candidates);
  if (session.platform_fns().Pointer("create_device_fns") != nullptr) {
    status.Reset();
    session.CreateDeviceFns(status);
    if (status.ok()) CheckStructSizeWritten(log, {"load.se.device_fns.struct_size_written", "SP_DeviceFns"}, session.device_fns(),
                           candidates);
  }
  if (session.platform_fns().Pointer("create_stream_executor") != nullptr) {
    status.Reset();
    session.CreateStreamExecutor(status);
    if (status.ok()) CheckStructSizeWritten(log, {"load.se.stream_executor.struct_size_written", "SP_StreamExecutor"},
                           session.stream_executor(), candidates);
  }
  log.SkipRemaining("load.se.device_fns.struct_size_written", "create_device_fns is not set or failed");
  log.SkipRemaining("load.se.stream_executor.struct_size_written", "create_stream_executor is not set or failed");
  CheckOverflow(log, session);
  CheckDevices(log, session, candidates);
  CheckHeaderGeneration(log, candidates);

  ScribbleOverDeadStack();
  std::string problems;
  for (const auto& [field, pointer, snapshot] : {std::tuple{"name", name, name_snapshot},
                                                 std::tuple{"type", type, type_snapshot}}) {
    const std::string problem = StringLifetimeProblem(pointer, snapshot);
    if (!problem.empty()) problems += (problems.empty() ? "SP_Platform." : "; SP_Platform.") + std::string(field) + " " + problem;
  }
  log.Expect("load.se.platform.strings_stable", problems.empty(), problems);
}

}  // namespace conformance::validate
