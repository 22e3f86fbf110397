#include "stream_executor/platform.h"

#include <memory>

#include "stream_executor/device.h"
#include "stream_executor/device_properties.h"
#include "stream_executor/plugin_config.h"
#include "stream_executor/stream_executor_table.h"
#include "stream_executor/timer_fns.h"

namespace reference_plugin {
namespace {

// State of one registration, reachable from every platform callback through SP_Platform.ext
// (TensorFlow copies SP_Platform by value, ext included, and passes its copy back to us).
// Keeping it there rather than in a global lets one process register the plugin more than
// once, each time with the configuration the environment had then (the tests do that).
struct PlatformState {
  PluginConfig config;
};

Status platform_state(const SP_Platform* platform, PlatformState** state) {
  if (platform == nullptr || platform->ext == nullptr) {
    return failed_precondition(
        "SP_Platform.ext does not hold the reference plugin's state; "
        "pass back the SP_Platform that SE_InitPlugin filled (a copy "
        "must keep every member)");
  }
  *state = static_cast<PlatformState*>(platform->ext);
  return Status();
}

void get_device_count(const SP_Platform* platform, int* device_count, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (device_count == nullptr) return invalid_argument("get_device_count: device_count is NULL");
    PlatformState* state = nullptr;
    REFERENCE_RETURN_IF_ERROR(platform_state(platform, &state));
    *device_count = state->config.device_count;
    return Status();
  });
}

void create_device(const SP_Platform* platform, SE_CreateDeviceParams* params, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    PlatformState* state = nullptr;
    REFERENCE_RETURN_IF_ERROR(platform_state(platform, &state));
    if (params == nullptr || params->device == nullptr) {
      return invalid_argument("create_device: SE_CreateDeviceParams or its device is NULL");
    }
    if (params->ordinal < 0 || params->ordinal >= state->config.device_count) {
      return invalid_argument("create_device: ordinal ", params->ordinal, " is out of range; ",
                              "the platform has ", state->config.device_count, " device(s)");
    }
    std::unique_ptr<Device> device;
    REFERENCE_RETURN_IF_ERROR(
        Device::create(params->ordinal, state->config.memory_bytes_per_device, &device));

    // SP_Device is 56 bytes in every TensorFlow generation, so it is filled whole.
    SP_Device& out = *params->device;
    out = SP_Device{};
    out.struct_size = SP_DEVICE_STRUCT_SIZE;
    out.ordinal = params->ordinal;
    out.hardware_name = device->hardware_name().c_str();  // owned by the Device
    out.device_vendor = device->device_vendor().c_str();
    out.pci_bus_id = device->pci_bus_id().c_str();
    out.device_handle = device.release();  // owned by TensorFlow until destroy_device
    return Status();
  });
}

void destroy_device(const SP_Platform* /*platform*/, SP_Device* device) {
  if (device == nullptr) return;
  delete static_cast<Device*>(device->device_handle);
  // The strings pointed into the Device; do not leave them dangling.
  device->device_handle = nullptr;
  device->hardware_name = nullptr;
  device->device_vendor = nullptr;
  device->pci_bus_id = nullptr;
}

void create_device_fns(const SP_Platform* /*platform*/, SE_CreateDeviceFnsParams* params,
                       TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (params == nullptr) return invalid_argument("create_device_fns: params is NULL");
    return fill_device_fns(params->device_fns);
  });
}

void destroy_device_fns(const SP_Platform* /*platform*/, SP_DeviceFns* /*device_fns*/) {
  // The table holds only function pointers: nothing to release.
}

void create_stream_executor(const SP_Platform* /*platform*/, SE_CreateStreamExecutorParams* params,
                            TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (params == nullptr) return invalid_argument("create_stream_executor: params is NULL");
    return fill_stream_executor(params->stream_executor);
  });
}

void destroy_stream_executor(const SP_Platform* /*platform*/, SP_StreamExecutor* /*table*/) {
  // Function pointers only. Per-device state belongs to the Device (destroy_device).
}

void create_timer_fns(const SP_Platform* /*platform*/, SP_TimerFns* timer_fns, TF_Status* status) {
  run_and_report(status, [&] { return fill_timer_fns(timer_fns); });
}

void destroy_timer_fns(const SP_Platform* /*platform*/, SP_TimerFns* /*timer_fns*/) {}

void destroy_platform(SP_Platform* platform) {
  if (platform == nullptr) return;
  delete static_cast<PlatformState*>(platform->ext);
  platform->ext = nullptr;
}

void destroy_platform_fns(SP_PlatformFns* /*platform_fns*/) {}

void fill_platform(SP_Platform& platform, std::unique_ptr<PlatformState> state) {
  // sizeof(SP_Platform) is 40 in every generation; the newer flags live in what older
  // generations had as padding, so writing the whole struct is always safe.
  platform = SP_Platform{};
  platform.struct_size = SP_PLATFORM_STRUCT_SIZE;
  platform.ext = state.release();  // freed by destroy_platform
  platform.name = kPlatformName;   // string literals: they outlive everything
  platform.type = kDeviceType;
  platform.supports_unified_memory = true;
  // Let TensorFlow put its BFC allocator in front of allocate/deallocate, the usual choice:
  // TensorFlow then asks the device for one big block early on (cheap, the arena is lazy)
  // and never frees memory that in-flight stream work may still be using.
  platform.use_bfc_allocator = true;
  platform.force_memory_growth = false;
}

void fill_platform_fns(SP_PlatformFns& fns) {
  fns = SP_PlatformFns{};
  fns.struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  fns.get_device_count = get_device_count;
  fns.create_device = create_device;
  fns.destroy_device = destroy_device;
  fns.create_device_fns = create_device_fns;
  fns.destroy_device_fns = destroy_device_fns;
  fns.create_stream_executor = create_stream_executor;
  fns.destroy_stream_executor = destroy_stream_executor;
  fns.create_timer_fns = create_timer_fns;
  fns.destroy_timer_fns = destroy_timer_fns;
}

}  // namespace

Status register_platform(SE_PlatformRegistrationParams* params) {
  if (params == nullptr) return invalid_argument("SE_InitPlugin: params is NULL");
  // The version is the only compatibility signal the core sends. A different major version
  // means the structs are not the ones this plugin was compiled against.
  if (params->major_version != SE_MAJOR) {
    return failed_precondition(
        "The reference plugin implements StreamExecutor C API version ", SE_MAJOR, ".", SE_MINOR,
        ".", SE_PATCH, " but the core offers ", params->major_version, ".", params->minor_version,
        ".", params->patch_version,
        "; a different major version is not compatible. Rebuild the plugin against the "
        "core's headers.");
  }
  if (params->struct_size != 0 &&
      params->struct_size < SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE) {
    return failed_precondition(
        "SE_PlatformRegistrationParams is ", params->struct_size, " bytes, smaller than the ",
        SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE, " bytes this plugin fills");
  }
  if (params->platform == nullptr || params->platform_fns == nullptr) {
    return invalid_argument(
        "SE_InitPlugin: params->platform and params->platform_fns must "
        "point at storage provided by the core");
  }

  // Everything that can fail comes before anything is written, so a failed registration
  // leaves the core's structs untouched and allocates nothing.
  auto state = std::make_unique<PlatformState>();
  REFERENCE_RETURN_IF_ERROR(read_plugin_config_from_environment(&state->config));

  fill_platform(*params->platform, std::move(state));
  fill_platform_fns(*params->platform_fns);
  params->destroy_platform = destroy_platform;
  params->destroy_platform_fns = destroy_platform_fns;
  return Status();
}

}  // namespace reference_plugin
