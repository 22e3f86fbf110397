// SE_InitPlugin: the EXAMPLE platform with one device.
#include <cstdint>

#include "device.h"
#include "launcher.h"
#include "plugin.h"

namespace example {
namespace {

void get_device_count(const SP_Platform*, int* count, TF_Status* status) {
  *count = 1;
  TF_SetStatus(status, TF_OK, "");
}

void create_device(const SP_Platform*, SE_CreateDeviceParams* params, TF_Status* status) {
  if (params->ordinal != 0) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "the EXAMPLE platform has one device, ordinal 0");
    return;
  }
  *params->device = SP_Device{};
  params->device->struct_size = SP_DEVICE_STRUCT_SIZE;
  params->device->ordinal = 0;
  params->device->device_handle = new Device;
  Launcher launcher;
  FillStreamExecutor(&launcher.table);
  launcher.device = *params->device;
  SetLauncher(launcher);  // kernels queue their work on this device
  TF_SetStatus(status, TF_OK, "");
}

void destroy_device(const SP_Platform*, SP_Device* device) {
  delete static_cast<Device*>(device->device_handle);
  device->device_handle = nullptr;
}

void create_device_fns(const SP_Platform*, SE_CreateDeviceFnsParams* params, TF_Status* status) {
  *params->device_fns = SP_DeviceFns{};
  params->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  TF_SetStatus(status, TF_OK, "");
}

void create_stream_executor(const SP_Platform*, SE_CreateStreamExecutorParams* params,
                            TF_Status* status) {
  FillStreamExecutor(params->stream_executor);
  TF_SetStatus(status, TF_OK, "");
}

uint64_t nanoseconds(SP_Timer) { return 0; }  // timers are unused by current TensorFlow

void create_timer_fns(const SP_Platform*, SP_TimerFns* fns, TF_Status* status) {
  *fns = SP_TimerFns{};
  fns->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  fns->nanoseconds = nanoseconds;
  TF_SetStatus(status, TF_OK, "");
}

void destroy_device_fns(const SP_Platform*, SP_DeviceFns*) {}
void destroy_stream_executor(const SP_Platform*, SP_StreamExecutor*) {}
void destroy_timer_fns(const SP_Platform*, SP_TimerFns*) {}
void destroy_platform(SP_Platform*) {}
void destroy_platform_fns(SP_PlatformFns*) {}

}  // namespace
}  // namespace example

void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  using namespace example;
  *params->platform = SP_Platform{};
  params->platform->struct_size = SP_PLATFORM_STRUCT_SIZE;
  params->platform->name = "EXAMPLE";
  params->platform->type = kDeviceType;
  SP_PlatformFns& fns = *params->platform_fns;
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
  params->destroy_platform = destroy_platform;
  params->destroy_platform_fns = destroy_platform_fns;
  TF_SetStatus(status, TF_OK, "");
}
