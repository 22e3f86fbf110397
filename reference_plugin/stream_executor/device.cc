#include "stream_executor/device.h"

#include <cstdio>
#include <utility>

#include "stream_executor/device_directory.h"
#include "stream_executor/diagnostics.h"

namespace reference_plugin {
namespace {

// One PCI device number per ordinal on bus 0: "0000:00:00.0", "0000:00:01.0", ...
std::string pci_bus_id_for(int32_t ordinal) {
  char text[sizeof("0000:00:00.0")];
  std::snprintf(text, sizeof(text), "0000:00:%02x.0", static_cast<unsigned>(ordinal) & 0x1fu);
  return text;
}

}  // namespace

Status Device::create(int32_t ordinal, uint64_t memory_capacity, std::unique_ptr<Device>* device) {
  std::unique_ptr<DeviceMemoryArena> memory;
  REFERENCE_RETURN_IF_ERROR(DeviceMemoryArena::create(memory_capacity, &memory));
  device->reset(new Device(ordinal, std::move(memory)));
  return Status();
}

Device::Device(int32_t ordinal, std::unique_ptr<DeviceMemoryArena> memory)
    : ordinal_(ordinal),
      hardware_name_("Reference Simulated Device"),
      device_vendor_("plugin_conformance reference plugin"),
      pci_bus_id_(pci_bus_id_for(ordinal)),
      memory_(std::move(memory)) {
  device_directory::add(this);
}

Device::~Device() {
  device_directory::remove(this);
  auto leftover_streams = streams_.remove_all();
  const auto leftover_events = events_.size();
  const auto leftover_timers = timers_.size();
  if (!leftover_streams.empty() || leftover_events != 0 || leftover_timers != 0) {
    warn(str_cat("destroy_device(ordinal ", ordinal_, "): ", leftover_streams.size(),
                 " stream(s), ", leftover_events, " event(s) and ", leftover_timers,
                 " timer(s) were never destroyed; destroying them now"));
  }
  // Stop the workers explicitly before anything else goes away.
  for (auto& stream : leftover_streams) stream->shut_down();
}

Status Device::from(const SP_Device* sp_device, Device** device) {
  if (sp_device == nullptr || sp_device->device_handle == nullptr) {
    return invalid_argument(
        "SP_Device is NULL or has no device_handle; "
        "was it created by this plugin's create_device?");
  }
  *device = static_cast<Device*>(sp_device->device_handle);
  return Status();
}

Status Device::find_stream(SP_Stream handle, std::shared_ptr<SP_Stream_st>* stream) const {
  *stream = streams_.find(handle);
  if (*stream == nullptr) {
    return invalid_argument("stream handle ", static_cast<const void*>(handle),
                            " is not a live stream of device ", ordinal_,
                            " (destroyed, or created on another device)");
  }
  return Status();
}

Status Device::find_event(SP_Event handle, std::shared_ptr<SP_Event_st>* event) const {
  *event = events_.find(handle);
  if (*event == nullptr) {
    return invalid_argument("event handle ", static_cast<const void*>(handle),
                            " is not a live event of device ", ordinal_,
                            " (destroyed, or created on another device)");
  }
  return Status();
}

Status Device::find_timer(SP_Timer handle, std::shared_ptr<SP_Timer_st>* timer) const {
  *timer = timers_.find(handle);
  if (*timer == nullptr) {
    return invalid_argument("timer handle ", static_cast<const void*>(handle),
                            " is not a live timer of device ", ordinal_,
                            " (destroyed, or created on another device)");
  }
  return Status();
}

std::string Device::next_stream_name() {
  return str_cat("refdev", ordinal_, ".s", streams_created_.fetch_add(1));
}

}  // namespace reference_plugin
