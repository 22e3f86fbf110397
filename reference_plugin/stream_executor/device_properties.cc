#include "stream_executor/device_properties.h"

namespace reference_plugin {
namespace {

// Nominal figures of the simulated device. They are not measured: they only need to be
// plausible and stable so that descriptions compare equal from run to run.
constexpr int32_t kNumaNode = 0;                                    // device memory is host memory
constexpr int64_t kMemoryBandwidthBytesPerSecond = 10'000'000'000;  // 10 GB/s
constexpr double kGflops = 100.0;

// These take the SP_Device but every simulated device is identical. A real plugin would
// look at device->device_handle. Returning a negative value would mean "unknown".
int32_t get_numa_node(const SP_Device* /*device*/) { return kNumaNode; }
int64_t get_memory_bandwidth(const SP_Device* /*device*/) { return kMemoryBandwidthBytesPerSecond; }
double get_gflops(const SP_Device* /*device*/) { return kGflops; }

}  // namespace

Status fill_device_fns(SP_DeviceFns* device_fns) {
  if (device_fns == nullptr) return invalid_argument("SE_CreateDeviceFnsParams.device_fns is NULL");
  *device_fns = SP_DeviceFns{};
  device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  device_fns->get_numa_node = get_numa_node;
  device_fns->get_memory_bandwidth = get_memory_bandwidth;
  device_fns->get_gflops = get_gflops;
  return Status();
}

}  // namespace reference_plugin
