#include "stream_executor/device_directory.h"

#include <mutex>
#include <set>

#include "stream_executor/device.h"

namespace reference_plugin::device_directory {
namespace {

std::mutex& directory_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::set<const Device*>& live_devices() {
  static std::set<const Device*> devices;
  return devices;
}

}  // namespace

void add(const Device* device) {
  std::lock_guard lock(directory_mutex());
  live_devices().insert(device);
}

void remove(const Device* device) {
  std::lock_guard lock(directory_mutex());
  live_devices().erase(device);
}

Status find_stream(SP_Stream handle, std::shared_ptr<SP_Stream_st>* stream) {
  std::lock_guard lock(directory_mutex());
  for (const Device* device : live_devices()) {
    if (device->find_stream(handle, stream).ok()) return Status();
  }
  return invalid_argument("stream handle ", static_cast<const void*>(handle),
                          " is not a live stream of any device of this plugin");
}

}  // namespace reference_plugin::device_directory
