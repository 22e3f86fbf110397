#pragma once
// The device a kernel runs on, as the kernel C API can observe it: its kind (what
// TF_GetStream answers), name and id, the plugin stream, and where its memory comes from.
#include <memory>
#include <string>

#include "core/allocator.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::core {

enum class DeviceKind {
  kCpu,        // TensorFlow's CPU device (no device context)
  kPluggable,  // a PluggableDevice: TF_GetStream returns `stream`
  kOther,      // any other device with a device context (e.g. the built-in GPU)
};

struct DeviceDescriptor {
  DeviceKind kind = DeviceKind::kCpu;
  std::string type = "CPU";  // device type, e.g. the plugin's SP_Platform.type
  std::string name = "/job:localhost/replica:0/task:0/device:CPU:0";
  int id = 0;                  // TF_GetDeviceId
  SP_Stream stream = nullptr;  // the plugin's stream (kPluggable only)
  // Device memory for outputs and temporaries not placed on the host. nullptr: the host
  // allocator stands in (fine for CPU and for simulated devices).
  std::shared_ptr<MemoryAllocator> device_allocator;
  // Host memory (host-memory args, on_host temporaries). nullptr: HostAllocator().
  std::shared_ptr<MemoryAllocator> host_allocator;

  static DeviceDescriptor Cpu() { return {}; }
  static DeviceDescriptor Pluggable(std::string type, SP_Stream stream, int id = 0,
                                    std::shared_ptr<MemoryAllocator> device_allocator = nullptr) {
    DeviceDescriptor d;
    d.kind = DeviceKind::kPluggable;
    d.name = "/job:localhost/replica:0/task:0/device:" + type + ":" + std::to_string(id);
    d.type = std::move(type);
    d.id = id;
    d.stream = stream;
    d.device_allocator = std::move(device_allocator);
    return d;
  }

  // Device memory unless `on_host`; the CPU device only has host memory.
  std::shared_ptr<MemoryAllocator> AllocatorFor(bool on_host) const {
    if (!on_host && kind != DeviceKind::kCpu && device_allocator) return device_allocator;
    return host_allocator ? host_allocator : HostAllocator();
  }
};

}  // namespace conformance::core
