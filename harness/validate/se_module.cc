#include "validate/se_module.h"

#include <string>
#include <vector>

#include "validate/generation_diagnosis.h"
#include "validate/tf_messages.h"

namespace conformance::validate {
namespace {

constexpr const char* kParams = "SE_PlatformRegistrationParams";

bool IsUnified(const std::string& field) { return field.starts_with("unified_memory_"); }

// Passes the plugin's status through unchanged, as TensorFlow does.
bool RequireOkStatus(CheckLog& log, const std::string& id, const OwnedStatus& status) {
  if (status.ok()) {
    log.Pass(id);
    return true;
  }
  log.Fail(id, status.message(), status.code());
  return false;
}

// A required callback left NULL: TensorFlow's refusal (its message, FAILED_PRECONDITION), blamed
// on that callback so a report groups it as its own root cause. Three NULL callbacks are three
// defects and three root causes, although TensorFlow names only the first it meets.
constexpr const char* kCallbackNotSet = "callback not set (NULL)";
bool RequireCallback(CheckLog& log, const std::string& id, std::string_view table,
                     const std::string& field, bool set) {
  if (set) {
    log.Pass(id);
  } else {
    log.Fail(id, FieldNotSetMessage(table, field), kTfFailedPrecondition,
             {{"failing_call", field}, {"problem", kCallbackNotSet}});
  }
  return set;
}

void ValidateRegistration(SeSession& session, CheckLog& log) {
  const MessageStyle style = session.profile().message_style;
  log.Require("load.se.params.struct_size", session.params().StructSize() != 0,
              StructSizeNotSetMessage(style, kParams));
  for (const char* field : {"destroy_platform", "destroy_platform_fns"}) {
    RequireCallback(log, std::string("load.se.params.") + field, kParams, field,
                    session.params().Pointer(field) != nullptr);
  }

  log.Require("load.se.platform.struct_size", session.platform().StructSize() != 0,
              StructSizeNotSetMessage(style, "SP_Platform"));
  const auto name = session.PlatformName();
  const auto type = session.PlatformType();
  log.Require("load.se.platform.name", name.has_value(), FieldNotSetMessage("SP_Platform", "name"));
  log.Require("load.se.platform.type", type.has_value(), FieldNotSetMessage("SP_Platform", "type"));
  for (const auto& [id, value, field] : {std::tuple{"load.se.platform.name_regex", name, "name"},
                                         std::tuple{"load.se.platform.type_regex", type, "type"}}) {
    if (value) {
      log.Require(id, IsValidDeviceType(*value), DeviceTypeRegexMessage(*value));
    } else {
      log.Skip(id, std::string("SP_Platform.") + field + " is not set");
    }
  }

  log.Require("load.se.platform_fns.struct_size", session.platform_fns().StructSize() != 0,
              StructSizeNotSetMessage(style, "SP_PlatformFns"));
  for (const auto& field : session.profile().platform_fns_required) {
    RequireCallback(log, "load.se.platform_fns." + field, "SP_PlatformFns", field,
                    session.platform_fns().Pointer(field) != nullptr);
  }
  if (session.platform_fns().Pointer("get_device_count") != nullptr) {
    log.Pass("load.se.platform_fns.get_device_count");
  } else {
    // TensorFlow's outcome is a crash, not a refusal: the verdict says its process dies.
    log.Fail("load.se.platform_fns.get_device_count",
             "get_device_count is not set; TensorFlow calls it without checking when it creates "
             "the first device and crashes",
             std::nullopt,
             {{"tensorflow_outcome", "crash"},
              {"failing_call", "get_device_count"},
              {"problem", kCallbackNotSet}});
  }
}

void CreateDeviceFns(SeSession& session, CheckLog& log) {
  if (session.platform_fns().Pointer("create_device_fns") == nullptr) {
    log.SkipRemaining("load.se.create_device_fns", "create_device_fns is not set");
    log.SkipRemaining("load.se.device_fns.", "create_device_fns is not set");
    return;
  }
  OwnedStatus status;
  log.Begin("load.se.create_device_fns");
  session.CreateDeviceFns(status);
  if (!RequireOkStatus(log, "load.se.create_device_fns", status)) {
    log.SkipRemaining("load.se.device_fns.", "create_device_fns failed");
    return;
  }
  log.Require("load.se.device_fns.struct_size", session.device_fns().StructSize() != 0,
              StructSizeNotSetMessage(session.profile().message_style, "SP_DeviceFns"));
}

void CreateStreamExecutor(SeSession& session, CheckLog& log) {
  if (session.platform_fns().Pointer("create_stream_executor") == nullptr) {
    log.SkipRemaining("load.se.create_stream_executor", "create_stream_executor is not set");
    log.SkipRemaining("load.se.stream_executor.", "create_stream_executor is not set");
    return;
  }
  OwnedStatus status;
  log.Begin("load.se.create_stream_executor");
  session.CreateStreamExecutor(status);
  if (!RequireOkStatus(log, "load.se.create_stream_executor", status)) {
    log.SkipRemaining("load.se.stream_executor.", "create_stream_executor failed");
    return;
  }
  StructBuffer& se = session.stream_executor();
  log.Require("load.se.stream_executor.struct_size", se.StructSize() != 0,
              StructSizeNotSetMessage(session.profile().message_style, "SP_StreamExecutor"));
  const bool unified = session.SupportsUnifiedMemory();
  for (const auto& field : session.profile().stream_executor_required) {
    const std::string id = "load.se.stream_executor." + field;
    if (IsUnified(field) && !unified) {
      log.NotSupported(id, "SP_Platform.supports_unified_memory is not set");
      continue;
    }
    if (se.Pointer(field) != nullptr) {
      log.Pass(id);
      continue;
    }
    // TensorFlow's own message; the layout shift behind it, when there is one, as a detail.
    Details details{{"failing_call", field}, {"problem", kCallbackNotSet}};
    if (auto shift =
            LayoutShiftDiagnosis(session.profile(), se, session.platform().StructSize(), field)) {
      details = {{"layout_shift", *shift},
                 {"failing_call", "create_stream_executor"},
                 {"problem", "built against other TensorFlow headers"}};
    }
    log.Fail(id, FieldNotSetMessage("SP_StreamExecutor", field), kTfFailedPrecondition,
             std::move(details));
  }
  if (se.Pointer("memcpy_dtod") != nullptr) {
    log.Pass("load.se.stream_executor.memcpy_dtod");
  } else {
    log.Fail("load.se.stream_executor.memcpy_dtod",
             "memcpy_dtod is not set; TensorFlow calls it without checking for every "
             "device-to-device copy and crashes",
             std::nullopt, {{"failing_call", "memcpy_dtod"}, {"problem", kCallbackNotSet}});
  }
}

void CreateTimerFns(SeSession& session, CheckLog& log) {
  if (session.platform_fns().Pointer("create_timer_fns") == nullptr) {
    log.SkipRemaining("load.se.create_timer_fns", "create_timer_fns is not set");
    log.SkipRemaining("load.se.timer_fns.", "create_timer_fns is not set");
    return;
  }
  OwnedStatus status;
  log.Begin("load.se.create_timer_fns");
  session.CreateTimerFns(status);
  if (!RequireOkStatus(log, "load.se.create_timer_fns", status)) {
    log.SkipRemaining("load.se.timer_fns.", "create_timer_fns failed");
    return;
  }
  log.Require("load.se.timer_fns.nanoseconds",
              session.timer_fns().Pointer("nanoseconds") != nullptr,
              FieldNotSetMessage("SP_TimerFns", "nanoseconds"));
}

// TensorFlow creates a device on first use: create_device, validate, then get_device_count.
void CreateFirstDevice(SeSession& session, CheckLog& log) {
  const char* kDeviceChecks = "load.se.create_device";
  if (session.platform_fns().Pointer("create_device") == nullptr) {
    log.SkipRemaining(kDeviceChecks, "create_device is not set");
    log.SkipRemaining("load.se.device.struct_size", "create_device is not set");
    log.SkipRemaining("load.se.get_device_count", "create_device is not set");
    return;
  }
  if (session.ReportsNoDevice()) {
    // No device (a machine without the hardware): TensorFlow creates none, so nothing here is
    // TensorFlow's to judge; load.se.device_count.positive reports it (model/no_device.h).
    const char* reason =
        "not run: get_device_count reported no device (0 or fewer), so TensorFlow creates none";
    log.Skip(kDeviceChecks, reason);
    log.Skip("load.se.device.struct_size", reason);
    log.Pass("load.se.get_device_count");
    return;
  }
  OwnedStatus status;
  StructBuffer device = session.NewDeviceBuffer();
  log.Begin(kDeviceChecks);
  session.CreateDevice(0, device, status);
  if (!RequireOkStatus(log, kDeviceChecks, status)) {
    log.SkipRemaining("load.se.device.struct_size", "create_device failed");
    log.SkipRemaining("load.se.get_device_count", "create_device failed");
    return;
  }
  log.Require("load.se.device.struct_size", device.StructSize() != 0,
              StructSizeNotSetMessage(session.profile().message_style, "SP_Device"));
  if (session.platform_fns().Pointer("get_device_count") == nullptr) {
    log.Skip("load.se.get_device_count",
             "get_device_count is not set (see load.se.platform_fns.get_device_count)");
  } else {
    int count = 0;
    status.Reset();
    log.Begin("load.se.get_device_count");
    session.GetDeviceCount(&count, status);
    // TensorFlow logs a failing count and counts no device: the plugin loads, its devices
    // never appear. Ours, hence without a TF_Code.
    if (status.ok()) {
      log.Pass("load.se.get_device_count");
    } else {
      log.Fail("load.se.get_device_count", status.message(), {},
               {{"failing_call", "get_device_count"}, {"problem", "returned an error status"}});
    }
  }
  session.DestroyDevice(device);
}

}  // namespace

std::vector<std::string> SeModuleCheckIds(const Profile& profile) {
  std::vector<std::string> ids = {"load.se.init",
                                  "load.se.params.struct_size",
                                  "load.se.params.destroy_platform",
                                  "load.se.params.destroy_platform_fns",
                                  "load.se.platform.struct_size",
                                  "load.se.platform.name",
                                  "load.se.platform.type",
                                  "load.se.platform.name_regex",
                                  "load.se.platform.type_regex",
                                  "load.se.platform_fns.struct_size"};
  for (const auto& field : profile.platform_fns_required)
    ids.push_back("load.se.platform_fns." + field);
  ids.insert(ids.end(), {"load.se.platform_fns.get_device_count", "load.se.create_device_fns",
                         "load.se.device_fns.struct_size", "load.se.create_stream_executor",
                         "load.se.stream_executor.struct_size"});
  for (const auto& field : profile.stream_executor_required)
    ids.push_back("load.se.stream_executor." + field);
  ids.push_back("load.se.stream_executor.memcpy_dtod");
  if (profile.calls_timer_fns)
    ids.insert(ids.end(), {"load.se.create_timer_fns", "load.se.timer_fns.nanoseconds"});
  ids.insert(ids.end(),
             {"load.se.create_device", "load.se.device.struct_size", "load.se.get_device_count"});
  return ids;
}

SeModuleOutcome RunSeModule(SeInitPluginFn init, const Profile& profile, CheckLog& log) {
  SeModuleOutcome outcome;
  if (init == nullptr) {
    log.SkipRemaining(
        "load.se.",
        "the plugin does not export SE_InitPlugin (TensorFlow skips the device module)");
    return outcome;
  }
  outcome.exported = true;
  SeSession session(profile, Prefill::kTensorFlow);
  OwnedStatus status;
  log.Begin("load.se.init");
  session.Init(init, status);
  if (!RequireOkStatus(log, "load.se.init", status)) {
    log.SkipRemaining("load.se.", "SE_InitPlugin failed (see load.se.init)");
    return outcome;
  }
  outcome.initialized = true;
  outcome.device_type = session.PlatformType();

  ValidateRegistration(session, log);
  CreateDeviceFns(session, log);
  CreateStreamExecutor(session, log);
  if (profile.calls_timer_fns) CreateTimerFns(session, log);
  CreateFirstDevice(session, log);
  return outcome;
}

}  // namespace conformance::validate
