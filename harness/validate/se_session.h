#pragma once
// One StreamExecutor-module session with a plugin, in the emulated core's struct layout:
// the registration structs SE_InitPlugin fills, then device fns, stream executor, timers and
// devices. Each call marks the plugin function in flight. Checks decide what to make of it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "validate/profile.h"
#include "validate/struct_buffer.h"
#include "validate/tf_status.h"

namespace conformance::validate {

using SeInitPluginFn = void (*)(SE_PlatformRegistrationParams*, TF_Status*);

// How plugin-filled structs are pre-filled before the plugin sees them.
enum class Prefill {
  kTensorFlow,     // struct_size = the emulated core's *_STRUCT_SIZE, rest zero (faithful)
  kPoisonedSizes,  // struct_size = kPoisonStructSize, rest zero (catches "never written")
};
inline constexpr std::uint64_t kPoisonStructSize = 0xC0FFEE;

class SeSession {
 public:
  SeSession(const Profile& profile, Prefill prefill);

  // SE_InitPlugin(&params, status) with core-filled params (versions, struct pointers).
  void Init(SeInitPluginFn init, OwnedStatus& status);
  void CreateDeviceFns(OwnedStatus& status);
  void CreateStreamExecutor(OwnedStatus& status);
  void CreateTimerFns(OwnedStatus& status);
  // create_device(&platform, {ordinal, device}, status) into `device`.
  void CreateDevice(int ordinal, StructBuffer& device, OwnedStatus& status);
  void DestroyDevice(StructBuffer& device);
  // get_device_count(&platform, count, status); `count` keeps whatever the caller put in.
  void GetDeviceCount(int* count, OwnedStatus& status);
  // get_device_count is set and says, with an OK status, that there is no device (0, or a
  // negative count, which load.se.device_count.positive fails): TensorFlow then never calls
  // create_device (it creates one device per ordinal below the count).
  bool ReportsNoDevice();

  StructBuffer& params() { return params_; }
  StructBuffer& platform() { return platform_; }
  StructBuffer& platform_fns() { return platform_fns_; }
  StructBuffer& device_fns() { return device_fns_; }
  StructBuffer& stream_executor() { return stream_executor_; }
  StructBuffer& timer_fns() { return timer_fns_; }
  StructBuffer NewDeviceBuffer() const;
  const Profile& profile() const { return profile_; }
  Prefill prefill() const { return prefill_; }

  // SP_Platform strings; nullopt when the pointer is NULL.
  std::optional<std::string> PlatformName() const;
  std::optional<std::string> PlatformType() const;
  bool SupportsUnifiedMemory() const;

 private:
  const SP_Platform* platform_ptr() { return static_cast<const SP_Platform*>(platform_.data()); }

  const Profile& profile_;
  Prefill prefill_;
  StructBuffer params_, platform_, platform_fns_, device_fns_, stream_executor_, timer_fns_;
  StructBuffer device_fns_params_, stream_executor_params_;
};

}  // namespace conformance::validate
