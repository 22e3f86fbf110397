#include "runtime/host_buffer.h"

#include <utility>

#include "runtime/device.h"
#include "runtime/device_session.h"
#include "runtime/plugin_call.h"

namespace conformance::runtime {

PluginHostMemory::PluginHostMemory(PluginHostMemory&& other) noexcept { *this = std::move(other); }

PluginHostMemory& PluginHostMemory::operator=(PluginHostMemory&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, nullptr);
    kind_ = other.kind_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = other.size_;
  }
  return *this;
}

PluginHostMemory::~PluginHostMemory() { Reset(); }

void PluginHostMemory::Reset() {
  if (device_ == nullptr) return;
  DeviceSession& session = device_->session();
  const SP_StreamExecutor& se = device_->se();
  if (kind_ == Kind::kHost) {
    PlainCall(session, StreamExecutorCallback("host_memory_deallocate")).Run([&] {
      se.host_memory_deallocate(device_->get(), data_);
    });
    session.accounting().host_buffers.destroyed.fetch_add(1);
  } else {
    PlainCall(session, StreamExecutorCallback("unified_memory_deallocate")).Run([&] {
      se.unified_memory_deallocate(device_->get(), data_);
    });
    session.accounting().unified_buffers.destroyed.fetch_add(1);
  }
  device_ = nullptr;
  data_ = nullptr;
}

}  // namespace conformance::runtime
