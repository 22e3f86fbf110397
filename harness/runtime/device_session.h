#pragma once
// A plugin's StreamExecutor brought up the way TensorFlow brings it up (spec §3.2): dlopen,
// SE_InitPlugin with TensorFlow's pre-fills (struct_size set, everything else zero),
// create_device_fns, create_stream_executor, and create_device per ordinal on first use (plus
// get_device_count, as TensorFlow calls it then). Structs are pre-filled with the emulated
// core's sizes (SessionOptions::profile); the SP_StreamExecutor the plugin filled is read
// through the layout of the header generation it was built against (inferred from the
// struct_size values it wrote: 264 bytes with host_callback at 256 before TF 2.10, 288 after)
// into a newest-typed copy in which callbacks that generation lacks are NULL. Teardown is
// TensorFlow's, in reverse order.
//
// Everything created through a session (Device, DeviceBuffer, Stream, Event, ...) must be
// destroyed before the session. A session is safe to use from several threads once open.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/accounting.h"
#include "runtime/call_error.h"
#include "runtime/findings.h"
#include "runtime/host_callback_ledger.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::validate {
class StructBuffer;
struct StructLayout;
}  // namespace conformance::validate

namespace conformance::runtime {

class Device;

using SeInitPluginFn = void (*)(SE_PlatformRegistrationParams*, TF_Status*);

struct SessionOptions {
  // true: every TF_Status is poisoned before a call (an untouched status is still OK, but is
  // recorded as a kStatusNotWritten finding). false: OK statuses, exactly what TensorFlow hands.
  bool poison_statuses = true;
  // The TensorFlow core emulated (--profile): the struct sizes it pre-fills, whether it calls
  // create_timer_fns.
  std::string profile = "newest";
};

class DeviceSession {
 public:
  // dlopen (RTLD_NOW | RTLD_LOCAL, never closed, as TensorFlow) and bring the platform up.
  // The core libraries must already be loaded (validate::PreloadCoreLibraries in the parent).
  static CallResult<std::unique_ptr<DeviceSession>> Open(const std::filesystem::path& plugin,
                                                         SessionOptions options = {});
  // Same, from an SE_InitPlugin already at hand (a plugin linked into a test).
  static CallResult<std::unique_ptr<DeviceSession>> Open(SeInitPluginFn init,
                                                         SessionOptions options = {});

  ~DeviceSession();
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  // get_device_count (poisoned out-param; a count never written is kOutParamNotWritten).
  CallResult<int> DeviceCount();
  // The device for `ordinal`, created on first use (create_device, then get_device_count).
  // The Device lives as long as the session.
  CallResult<Device*> GetDevice(int ordinal);

  const SP_Platform& platform() const { return platform_; }
  const SP_PlatformFns& platform_fns() const { return platform_fns_; }
  const SP_DeviceFns& device_fns() const { return device_fns_; }
  // The table the plugin filled, read through its generation's layout into the newest type
  // (all calls go through this copy; callbacks the generation lacks are NULL).
  const SP_StreamExecutor& stream_executor() const { return stream_executor_; }
  // SP_StreamExecutor.struct_size as the plugin left it, and the header generation the sizes
  // it wrote name, in plain words ("TensorFlow 2.5 and 2.6 headers (264-byte ...)").
  std::size_t stream_executor_struct_size() const { return stream_executor_.struct_size; }
  std::string generation() const { return generation_; }
  // Whether the plugin's header generation has SP_StreamExecutor.`field` at all.
  bool GenerationHas(std::string_view field) const;
  // The error for calling SP_StreamExecutor.`field` while it is NULL: kUnsupported naming the
  // generation when that generation lacks the callback, kMissingCallback otherwise.
  Error MissingCallback(std::string_view field) const;
  bool supports_unified_memory() const { return platform_.supports_unified_memory != 0; }

  const SessionOptions& options() const { return options_; }
  Findings& findings() { return findings_; }
  const Findings& findings() const { return findings_; }
  Accounting& accounting() { return accounting_; }
  const Accounting& accounting() const { return accounting_; }
  HostCallbackLedger& host_callbacks() { return *ledger_; }

  // A fresh serial for naming streams/events in details and orderings.
  std::uint64_t NextSerial();

 private:
  explicit DeviceSession(SessionOptions options);
  CallStatus Bring(SeInitPluginFn init);
  CallStatus AdoptStreamExecutor(const validate::StructLayout& core_layout);
  void TearDown();

  SessionOptions options_;
  Findings findings_;
  Accounting accounting_;
  std::shared_ptr<HostCallbackLedger> ledger_;
  SE_PlatformRegistrationParams params_{};
  SP_Platform platform_{};
  SP_PlatformFns platform_fns_{};
  SP_DeviceFns device_fns_{};
  std::unique_ptr<validate::StructBuffer> stream_executor_buffer_;  // what the plugin filled
  const validate::StructLayout* plugin_layout_ = nullptr;           // its generation's layout
  SP_StreamExecutor stream_executor_{};
  std::string generation_ = "not known yet";
  SP_TimerFns timer_fns_{};
  bool platform_created_ = false, device_fns_created_ = false, stream_executor_created_ = false;
  bool timer_fns_created_ = false;
  std::mutex devices_mutex_;
  std::vector<std::unique_ptr<Device>> devices_;  // index = ordinal; null until first use
  std::atomic<std::uint64_t> serial_{0};
};

}  // namespace conformance::runtime
