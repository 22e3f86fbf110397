#pragma once
// An SP_Event owned by the harness (destroy_event on destruction, exactly once).
#include <cstdint>

#include "runtime/call_error.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::runtime {

class Device;

class Event {
 public:
  Event() = default;
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  bool valid() const { return device_ != nullptr; }
  SP_Event get() const { return event_; }
  Device* device() const { return device_; }
  std::uint64_t serial() const { return serial_; }

  SE_EventStatus Poll();   // get_event_status
  CallStatus BlockHost();  // block_host_for_event
  void Reset();            // destroy now (idempotent)

 private:
  friend class Device;
  Event(Device* device, SP_Event event, std::uint64_t serial)
      : device_(device), event_(event), serial_(serial) {}
  Device* device_ = nullptr;
  SP_Event event_ = nullptr;
  std::uint64_t serial_ = 0;
};

const char* EventStatusName(SE_EventStatus status);

}  // namespace conformance::runtime
