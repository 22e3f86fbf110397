#include "runtime/event.h"

#include <utility>

#include "runtime/device.h"
#include "runtime/device_session.h"
#include "runtime/plugin_call.h"

namespace conformance::runtime {

Event::Event(Event&& other) noexcept { *this = std::move(other); }

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, nullptr);
    event_ = std::exchange(other.event_, nullptr);
    serial_ = other.serial_;
  }
  return *this;
}

Event::~Event() { Reset(); }

SE_EventStatus Event::Poll() {
  const SP_StreamExecutor& se = device_->se();
  return PlainCall(device_->session(), StreamExecutorCallback("get_event_status")).Run([&] {
    return se.get_event_status(device_->get(), event_);
  });
}

CallStatus Event::BlockHost() {
  const SP_StreamExecutor& se = device_->se();
  return StatusCall(device_->session(), StreamExecutorCallback("block_host_for_event"))
      .Run([&](TF_Status* s) { se.block_host_for_event(device_->get(), event_, s); });
}

void Event::Reset() {
  if (device_ == nullptr) return;
  const SP_StreamExecutor& se = device_->se();
  PlainCall(device_->session(), StreamExecutorCallback("destroy_event")).Run([&] {
    se.destroy_event(device_->get(), event_);
  });
  device_->session().accounting().events.destroyed.fetch_add(1);
  device_ = nullptr;
  event_ = nullptr;
}

const char* EventStatusName(SE_EventStatus status) {
  switch (status) {
    case SE_EVENT_UNKNOWN: return "UNKNOWN";
    case SE_EVENT_ERROR: return "ERROR";
    case SE_EVENT_PENDING: return "PENDING";
    case SE_EVENT_COMPLETE: return "COMPLETE";
  }
  return "invalid";
}

}  // namespace conformance::runtime
