#include "runtime/device_session.h"

#include <cstring>
#include <string>
#include <utility>

#include "loader/plugin_library.h"
#include "runtime/device.h"
#include "runtime/plugin_call.h"
#include "runtime/sentinels.h"
#include "validate/header_generation.h"
#include "validate/profile.h"
#include "validate/struct_buffer.h"

namespace conformance::runtime {
namespace {

Error LoadError(std::string callback, std::string message) {
  return Error{ErrorKind::kLoad, std::move(callback), TF_FAILED_PRECONDITION, std::move(message)};
}

// The newest golden layout: the one SP_StreamExecutor (our header's type) is laid out by.
const validate::StructLayout& NewestStreamExecutor() {
  return validate::HeaderGenerations().front().layout->Struct("SP_StreamExecutor");
}

// Copies every field `from` has into the newest-typed table, by name (host_callback moves from
// 256 to 280; mem_zero/memset/memset32 stay NULL when the plugin's generation lacks them).
SP_StreamExecutor ReadThrough(const validate::StructLayout& from, const std::byte* filled) {
  SP_StreamExecutor table{};
  auto* out = reinterpret_cast<std::byte*>(&table);
  for (const validate::FieldLayout& field : NewestStreamExecutor().fields) {
    if (!from.HasField(field.name)) continue;
    std::memcpy(out + field.offset, filled + from.Field(field.name).offset, field.size);
  }
  return table;
}

}  // namespace

CallResult<std::unique_ptr<DeviceSession>> DeviceSession::Open(const std::filesystem::path& plugin,
                                                               SessionOptions options) {
  auto library = loader::PluginLibrary::Open(plugin);  // never closed: TensorFlow never unloads
  if (!library.ok()) return LoadError("dlopen", library.error().Describe());
  const auto entry_points = library.value().FindEntryPoints();
  if (!entry_points.se_init_plugin) {
    return Error{ErrorKind::kUnsupported, "SE_InitPlugin", TF_UNIMPLEMENTED,
                 "the plugin does not export SE_InitPlugin: it has no StreamExecutor to drive"};
  }
  return Open(reinterpret_cast<SeInitPluginFn>(entry_points.se_init_plugin->function),
              std::move(options));
}

CallResult<std::unique_ptr<DeviceSession>> DeviceSession::Open(SeInitPluginFn init,
                                                               SessionOptions options) {
  std::unique_ptr<DeviceSession> session(new DeviceSession(std::move(options)));
  CallStatus status = session->Bring(init);
  if (!status.ok()) return status.error();
  return session;
}

DeviceSession::DeviceSession(SessionOptions options)
    : options_(std::move(options)), ledger_(std::make_shared<HostCallbackLedger>()) {}

DeviceSession::~DeviceSession() { TearDown(); }

std::uint64_t DeviceSession::NextSerial() { return serial_.fetch_add(1) + 1; }

bool DeviceSession::GenerationHas(std::string_view field) const {
  return plugin_layout_ == nullptr || plugin_layout_->HasField(field);
}

Error DeviceSession::MissingCallback(std::string_view field) const {
  const std::string callback = StreamExecutorCallback(field);
  if (!GenerationHas(field)) {
    return Error{
        ErrorKind::kUnsupported, callback, TF_UNIMPLEMENTED,
        "the plugin was built against " + generation_ + ", which have no " + std::string(field)};
  }
  return Error{ErrorKind::kMissingCallback, callback, TF_INTERNAL,
               "the callback is NULL; TensorFlow would crash calling it"};
}

// TensorFlow's order (spec §3.2): init, validate, device fns, stream executor. The load tier
// reports what is wrong in detail; here a problem only stops the session with a reason.
CallStatus DeviceSession::Bring(SeInitPluginFn init) {
  const validate::Profile* profile = validate::FindProfile(options_.profile);
  if (profile == nullptr) {
    return Error{ErrorKind::kUsage, "SE_InitPlugin", TF_INVALID_ARGUMENT,
                 "no profile " + options_.profile};
  }
  const validate::AbiLayout& core = *profile->layout;
  params_.struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
  params_.major_version = SE_MAJOR;
  params_.minor_version = SE_MINOR;
  params_.patch_version = SE_PATCH;
  params_.platform = &platform_;
  params_.platform_fns = &platform_fns_;
  platform_.struct_size = core.Struct("SP_Platform").struct_size_value;  // 33/34/35 by generation
  platform_fns_.struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;

  CallStatus status =
      StatusCall(*this, "SE_InitPlugin").Run([&](TF_Status* s) { init(&params_, s); });
  if (!status.ok()) return status;
  platform_created_ = true;
  const SP_PlatformFns& fns = platform_fns_;
  if (params_.destroy_platform == nullptr || params_.destroy_platform_fns == nullptr ||
      fns.create_device == nullptr || fns.destroy_device == nullptr ||
      fns.create_device_fns == nullptr || fns.destroy_device_fns == nullptr ||
      fns.create_stream_executor == nullptr || fns.destroy_stream_executor == nullptr) {
    return LoadError("SE_InitPlugin",
                     "the plugin's registration is incomplete (see the load tier)");
  }

  SE_CreateDeviceFnsParams device_fns_params{};
  device_fns_params.struct_size = SE_CREATE_DEVICE_FNS_PARAMS_STRUCT_SIZE;
  device_fns_params.device_fns = &device_fns_;
  device_fns_.struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  status = StatusCall(*this, "SP_PlatformFns.create_device_fns").Run([&](TF_Status* s) {
    fns.create_device_fns(&platform_, &device_fns_params, s);
  });
  if (!status.ok()) return status;
  device_fns_created_ = true;

  // Older cores create the timer functions right after the stream executor (spec §3.2 step 6).
  status = AdoptStreamExecutor(core.Struct("SP_StreamExecutor"));
  if (!status.ok() || !profile->calls_timer_fns || fns.create_timer_fns == nullptr) return status;
  timer_fns_.struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  status = StatusCall(*this, "SP_PlatformFns.create_timer_fns").Run([&](TF_Status* s) {
    fns.create_timer_fns(&platform_, &timer_fns_, s);
  });
  timer_fns_created_ = status.ok();
  return status;
}

// The plugin fills a buffer of the emulated core's size; the table is then read through the
// layout of the generation its struct_size values name (the core's own when they name none).
CallStatus DeviceSession::AdoptStreamExecutor(const validate::StructLayout& core_layout) {
  stream_executor_buffer_ = std::make_unique<validate::StructBuffer>(core_layout);
  SE_CreateStreamExecutorParams se_params{};
  se_params.struct_size = SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE;
  se_params.stream_executor = static_cast<SP_StreamExecutor*>(stream_executor_buffer_->data());
  CallStatus status =
      StatusCall(*this, "SP_PlatformFns.create_stream_executor").Run([&](TF_Status* s) {
        platform_fns_.create_stream_executor(&platform_, &se_params, s);
      });
  if (!status.ok()) return status;
  stream_executor_created_ = true;

  const std::uint64_t written = stream_executor_buffer_->StructSize();
  const auto inference = validate::InferGeneration(
      {{"SP_StreamExecutor", written}, {"SP_Platform", platform_.struct_size}});
  auto by_size = validate::GenerationsHaving("SP_StreamExecutor", written);
  plugin_layout_ =
      by_size.empty() ? &core_layout : &by_size.front()->layout->Struct("SP_StreamExecutor");
  validate::GenerationInference named = inference;
  if (!named.known()) named.candidates = by_size;  // a mixture: the executor's size decides
  const std::string headers = named.Headers();
  generation_ =
      headers + " headers (" + std::to_string(plugin_layout_->size_of) + "-byte SP_StreamExecutor)";
  if (plugin_layout_->size_of > core_layout.size_of) {
    return Error{ErrorKind::kUnsupported, "SP_PlatformFns.create_stream_executor", TF_UNIMPLEMENTED,
                 "the plugin was built against " + generation_ +
                     " and wrote past the emulated core's " + std::to_string(core_layout.size_of) +
                     "-byte SP_StreamExecutor (--profile " + options_.profile +
                     "): that TensorFlow reads its callbacks at the wrong offsets "
                     "(load.se.struct_overflow)"};
  }
  if (written == 0) {
    return LoadError(
        "SP_PlatformFns.create_stream_executor",
        "SP_StreamExecutor.struct_size is 0, which TensorFlow rejects (see the load tier)");
  }
  stream_executor_ =
      ReadThrough(*plugin_layout_, static_cast<const std::byte*>(stream_executor_buffer_->data()));
  return CallStatus::Ok();
}

CallResult<int> DeviceSession::DeviceCount() {
  const char* callback = "SP_PlatformFns.get_device_count";
  if (platform_fns_.get_device_count == nullptr) {
    return Error{ErrorKind::kMissingCallback, callback, TF_INTERNAL, "get_device_count is NULL"};
  }
  int count = kPoisonInt;
  CallStatus status = StatusCall(*this, callback).Run([&](TF_Status* s) {
    platform_fns_.get_device_count(&platform_, &count, s);
  });
  if (!status.ok()) return status.error();
  if (count == kPoisonInt) {
    findings_.Record(FindingKind::kOutParamNotWritten, callback,
                     "get_device_count never wrote *device_count");
    return Error{ErrorKind::kOutParamNotWritten, callback, TF_INTERNAL,
                 "returned OK without writing *device_count"};
  }
  return count;
}

CallResult<Device*> DeviceSession::GetDevice(int ordinal) {
  std::lock_guard lock(devices_mutex_);
  if (ordinal < 0)
    return Error{ErrorKind::kUsage, "SP_PlatformFns.create_device", TF_INVALID_ARGUMENT,
                 "negative ordinal"};
  if (static_cast<std::size_t>(ordinal) < devices_.size() && devices_[ordinal])
    return devices_[ordinal].get();

  // TensorFlow only asks for ordinals below the visible device count.
  auto count = DeviceCount();
  if (!count.ok()) return count.error();
  if (ordinal >= count.value()) {
    return Error{ErrorKind::kUnsupported, "SP_PlatformFns.create_device", TF_OUT_OF_RANGE,
                 "device " + std::to_string(ordinal) + " requested, the plugin has " +
                     std::to_string(count.value())};
  }
  SP_Device filled{};
  filled.struct_size = SP_DEVICE_STRUCT_SIZE;
  SE_CreateDeviceParams params{};
  params.struct_size = SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE;
  params.ordinal = ordinal;
  params.device = &filled;
  CallStatus status = StatusCall(*this, "SP_PlatformFns.create_device").Run([&](TF_Status* s) {
    platform_fns_.create_device(&platform_, &params, s);
  });
  if (!status.ok()) return status.error();
  if (devices_.size() <= static_cast<std::size_t>(ordinal)) devices_.resize(ordinal + 1);
  // Like TensorFlow, keep a copy: later callbacks get a different address than create_device.
  devices_[ordinal] = std::make_unique<Device>(*this, ordinal, filled);
  (void)DeviceCount();  // TensorFlow calls it right after creating a device
  return devices_[ordinal].get();
}

void DeviceSession::TearDown() {
  for (auto& device : devices_) {
    if (!device) continue;
    PlainCall(*this, "SP_PlatformFns.destroy_device").Run([&] {
      platform_fns_.destroy_device(&platform_, device->get());
    });
  }
  devices_.clear();
  if (device_fns_created_) {
    PlainCall(*this, "SP_PlatformFns.destroy_device_fns").Run([&] {
      platform_fns_.destroy_device_fns(&platform_, &device_fns_);
    });
  }
  if (stream_executor_created_) {
    PlainCall(*this, "SP_PlatformFns.destroy_stream_executor").Run([&] {
      platform_fns_.destroy_stream_executor(
          &platform_, static_cast<SP_StreamExecutor*>(stream_executor_buffer_->data()));
    });
  }
  if (platform_created_) {
    // Every core calls destroy_timer_fns; the newest on timer fns it never had filled.
    if (platform_fns_.destroy_timer_fns != nullptr) {
      if (!timer_fns_created_) timer_fns_ = SP_TimerFns{SP_TIMER_FNS_STRUCT_SIZE, nullptr, nullptr};
      PlainCall(*this, "SP_PlatformFns.destroy_timer_fns").Run([&] {
        platform_fns_.destroy_timer_fns(&platform_, &timer_fns_);
      });
    }
    if (params_.destroy_platform != nullptr) {
      PlainCall(*this, "SE_PlatformRegistrationParams.destroy_platform").Run([&] {
        params_.destroy_platform(&platform_);
      });
    }
    if (params_.destroy_platform_fns != nullptr) {
      PlainCall(*this, "SE_PlatformRegistrationParams.destroy_platform_fns").Run([&] {
        params_.destroy_platform_fns(&platform_fns_);
      });
    }
  }
  // A plugin that still owes host callbacks might call them later: keep their entries alive.
  // Reachable from a static, so leak checkers do not flag this deliberate keep-alive.
  if (ledger_->Outstanding() > 0) {
    static std::mutex graveyard_mutex;
    static auto* graveyard = new std::vector<std::shared_ptr<HostCallbackLedger>>();
    std::lock_guard lock(graveyard_mutex);
    graveyard->push_back(ledger_);
  }
}

}  // namespace conformance::runtime
