#include "validate/se_session.h"

#include "isolate/in_flight.h"

namespace conformance::validate {
namespace {

const StructLayout& Layout(const Profile& profile, const char* name) {
  return profile.layout->Struct(name);
}

}  // namespace

SeSession::SeSession(const Profile& profile, Prefill prefill)
    : profile_(profile),
      prefill_(prefill),
      params_(Layout(profile, "SE_PlatformRegistrationParams")),
      platform_(Layout(profile, "SP_Platform")),
      platform_fns_(Layout(profile, "SP_PlatformFns")),
      device_fns_(Layout(profile, "SP_DeviceFns")),
      stream_executor_(Layout(profile, "SP_StreamExecutor")),
      timer_fns_(Layout(profile, "SP_TimerFns")),
      device_fns_params_(Layout(profile, "SE_CreateDeviceFnsParams")),
      stream_executor_params_(Layout(profile, "SE_CreateStreamExecutorParams")) {
  if (prefill == Prefill::kPoisonedSizes) {
    for (StructBuffer* plugin_filled :
         {&platform_, &platform_fns_, &device_fns_, &stream_executor_, &timer_fns_}) {
      plugin_filled->FillWithPoisonedSize(kPoisonStructSize);
    }
  }
  params_.Set<std::int32_t>("major_version", SE_MAJOR);
  params_.Set<std::int32_t>("minor_version", SE_MINOR);
  params_.Set<std::int32_t>("patch_version", SE_PATCH);
  params_.Set<void*>("platform", platform_.data());
  params_.Set<void*>("platform_fns", platform_fns_.data());
  device_fns_params_.Set<void*>("device_fns", device_fns_.data());
  stream_executor_params_.Set<void*>("stream_executor", stream_executor_.data());
}

StructBuffer SeSession::NewDeviceBuffer() const {
  StructBuffer device(Layout(profile_, "SP_Device"));
  if (prefill_ == Prefill::kPoisonedSizes) device.FillWithPoisonedSize(kPoisonStructSize);
  return device;
}

void SeSession::Init(SeInitPluginFn init, OwnedStatus& status) {
  in_flight::PluginCall call("SE_InitPlugin");
  init(static_cast<SE_PlatformRegistrationParams*>(params_.data()), status.get());
}

void SeSession::CreateDeviceFns(OwnedStatus& status) {
  auto fn = AsFunction<decltype(SP_PlatformFns::create_device_fns)>(
      platform_fns_.Pointer("create_device_fns"));
  in_flight::PluginCall call("SP_PlatformFns.create_device_fns");
  fn(platform_ptr(), static_cast<SE_CreateDeviceFnsParams*>(device_fns_params_.data()),
     status.get());
}

void SeSession::CreateStreamExecutor(OwnedStatus& status) {
  auto fn = AsFunction<decltype(SP_PlatformFns::create_stream_executor)>(
      platform_fns_.Pointer("create_stream_executor"));
  in_flight::PluginCall call("SP_PlatformFns.create_stream_executor");
  fn(platform_ptr(), static_cast<SE_CreateStreamExecutorParams*>(stream_executor_params_.data()),
     status.get());
}

void SeSession::CreateTimerFns(OwnedStatus& status) {
  auto fn = AsFunction<decltype(SP_PlatformFns::create_timer_fns)>(
      platform_fns_.Pointer("create_timer_fns"));
  in_flight::PluginCall call("SP_PlatformFns.create_timer_fns");
  fn(platform_ptr(), static_cast<SP_TimerFns*>(timer_fns_.data()), status.get());
}

void SeSession::CreateDevice(int ordinal, StructBuffer& device, OwnedStatus& status) {
  StructBuffer params(Layout(profile_, "SE_CreateDeviceParams"));
  params.Set<std::int32_t>("ordinal", ordinal);
  params.Set<void*>("device", device.data());
  auto fn =
      AsFunction<decltype(SP_PlatformFns::create_device)>(platform_fns_.Pointer("create_device"));
  in_flight::PluginCall call("SP_PlatformFns.create_device");
  fn(platform_ptr(), static_cast<SE_CreateDeviceParams*>(params.data()), status.get());
}

void SeSession::DestroyDevice(StructBuffer& device) {
  auto fn =
      AsFunction<decltype(SP_PlatformFns::destroy_device)>(platform_fns_.Pointer("destroy_device"));
  if (fn == nullptr) return;
  in_flight::PluginCall call("SP_PlatformFns.destroy_device");
  fn(platform_ptr(), static_cast<SP_Device*>(device.data()));
}

void SeSession::GetDeviceCount(int* count, OwnedStatus& status) {
  auto fn = AsFunction<decltype(SP_PlatformFns::get_device_count)>(
      platform_fns_.Pointer("get_device_count"));
  in_flight::PluginCall call("SP_PlatformFns.get_device_count");
  fn(platform_ptr(), count, status.get());
}

std::optional<std::string> SeSession::PlatformName() const {
  const char* name = static_cast<const char*>(platform_.Pointer("name"));
  return name ? std::optional<std::string>(name) : std::nullopt;
}

std::optional<std::string> SeSession::PlatformType() const {
  const char* type = static_cast<const char*>(platform_.Pointer("type"));
  return type ? std::optional<std::string>(type) : std::nullopt;
}

bool SeSession::SupportsUnifiedMemory() const {
  return platform_.Get<std::uint8_t>("supports_unified_memory") != 0;
}

bool SeSession::ReportsNoDevice() {
  if (platform_fns_.Pointer("get_device_count") == nullptr) return false;
  int count = -1;
  OwnedStatus status;
  GetDeviceCount(&count, status);
  return status.ok() && count <= 0;
}

}  // namespace conformance::validate
