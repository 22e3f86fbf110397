#pragma once
// Device: everything one simulated device owns. TensorFlow gets it as SP_Device.device_handle
// and hands it back to every SP_StreamExecutor callback.
//
// A device owns its memory arena and every stream, event and timer created on it. Destroying
// the device stops its streams first (their workers may still be touching device memory),
// then frees events, timers and finally the arena, so nothing outlives it even if the
// caller forgot to destroy some handles (that is reported as a warning).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "stream_executor/device_memory_arena.h"
#include "stream_executor/event.h"
#include "stream_executor/handle_registry.h"
#include "stream_executor/status.h"
#include "stream_executor/stream.h"
#include "stream_executor/timer.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

class Device {
 public:
  static Status create(int32_t ordinal, uint64_t memory_capacity, std::unique_ptr<Device>* device);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // The Device behind TensorFlow's SP_Device, or TF_INVALID_ARGUMENT if there is none.
  static Status from(const SP_Device* sp_device, Device** device);

  int32_t ordinal() const { return ordinal_; }
  // Strings for SP_Device; they live as long as the device.
  const std::string& hardware_name() const { return hardware_name_; }
  const std::string& device_vendor() const { return device_vendor_; }
  const std::string& pci_bus_id() const { return pci_bus_id_; }

  DeviceMemoryArena& memory() { return *memory_; }

  HandleRegistry<SP_Stream_st>& streams() { return streams_; }
  HandleRegistry<SP_Event_st>& events() { return events_; }
  HandleRegistry<SP_Timer_st>& timers() { return timers_; }

  // Handle lookups: TF_INVALID_ARGUMENT for a handle that is not live on this device.
  Status find_stream(SP_Stream handle, std::shared_ptr<SP_Stream_st>* stream) const;
  Status find_event(SP_Event handle, std::shared_ptr<SP_Event_st>* event) const;
  Status find_timer(SP_Timer handle, std::shared_ptr<SP_Timer_st>* timer) const;

  // "refdev<ordinal>.s<n>", unique per device; also names the stream's worker thread.
  std::string next_stream_name();

 private:
  Device(int32_t ordinal, std::unique_ptr<DeviceMemoryArena> memory);

  const int32_t ordinal_;
  const std::string hardware_name_;
  const std::string device_vendor_;
  const std::string pci_bus_id_;
  std::atomic<int> streams_created_{0};

  // Declaration order is destruction order reversed: streams go first, the arena last.
  std::unique_ptr<DeviceMemoryArena> memory_;
  HandleRegistry<SP_Timer_st> timers_;
  HandleRegistry<SP_Event_st> events_;
  HandleRegistry<SP_Stream_st> streams_;
};

}  // namespace reference_plugin
