#include "runtime/stream.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "isolate/in_flight.h"

#include "runtime/device.h"
#include "runtime/device_session.h"
#include "runtime/event.h"
#include "runtime/interior_note.h"
#include "runtime/plugin_call.h"
#include "runtime/wait_idle.h"

namespace conformance::runtime {
Stream::Stream(Stream&& other) noexcept { *this = std::move(other); }

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, nullptr);
    stream_ = std::exchange(other.stream_, nullptr);
    serial_ = other.serial_;
  }
  return *this;
}

Stream::~Stream() { Reset(); }

// Each call: look the callback up, build TensorFlow's temporaries, run it through StatusCall.
#define RUNTIME_STREAM_CALL(field, ...)                                       \
  const std::string callback = StreamExecutorCallback(#field);                \
  const SP_StreamExecutor& se = device_->se();                                \
  if (se.field == nullptr) return device_->session().MissingCallback(#field); \
  return StatusCall(device_->session(), callback).Run([&](TF_Status* s) { se.field(__VA_ARGS__); })

CallStatus Stream::MemcpyHtoD(const DeviceRange& dst, const void* src, std::uint64_t size) {
  const auto note = InteriorNote({&dst});
  SP_DeviceMemoryBase d = dst.ToC();
  RUNTIME_STREAM_CALL(memcpy_htod, device_->get(), stream_, &d, src, size, s);
}

CallStatus Stream::MemcpyDtoH(void* dst, const DeviceRange& src, std::uint64_t size) {
  const auto note = InteriorNote({&src});
  const SP_DeviceMemoryBase s_mem = src.ToC();
  RUNTIME_STREAM_CALL(memcpy_dtoh, device_->get(), stream_, dst, &s_mem, size, s);
}

CallStatus Stream::MemcpyDtoD(const DeviceRange& dst, const DeviceRange& src, std::uint64_t size) {
  const auto note = InteriorNote({&dst, &src});
  SP_DeviceMemoryBase d = dst.ToC();
  const SP_DeviceMemoryBase s_mem = src.ToC();
  RUNTIME_STREAM_CALL(memcpy_dtod, device_->get(), stream_, &d, &s_mem, size, s);
}

CallStatus Stream::MemZero(const DeviceRange& location, std::uint64_t size) {
  const auto note = InteriorNote({&location});
  SP_DeviceMemoryBase l = location.ToC();
  RUNTIME_STREAM_CALL(mem_zero, device_->get(), stream_, &l, size, s);
}

CallStatus Stream::Memset(const DeviceRange& location, std::uint8_t pattern, std::uint64_t size) {
  const auto note = InteriorNote({&location});
  SP_DeviceMemoryBase l = location.ToC();
  RUNTIME_STREAM_CALL(memset, device_->get(), stream_, &l, pattern, size, s);
}

CallStatus Stream::Memset32(const DeviceRange& location, std::uint32_t pattern,
                            std::uint64_t size) {
  const auto note = InteriorNote({&location});
  SP_DeviceMemoryBase l = location.ToC();
  RUNTIME_STREAM_CALL(memset32, device_->get(), stream_, &l, pattern, size, s);
}

CallStatus Stream::WaitFor(const Stream& other) {
  RUNTIME_STREAM_CALL(create_stream_dependency, device_->get(), stream_, other.get(), s);
}

CallStatus Stream::WaitFor(const Event& event) {
  RUNTIME_STREAM_CALL(wait_for_event, device_->get(), stream_, event.get(), s);
}

CallStatus Stream::Record(const Event& event) {
  RUNTIME_STREAM_CALL(record_event, device_->get(), stream_, event.get(), s);
}

CallStatus Stream::GetStatus() {
  RUNTIME_STREAM_CALL(get_stream_status, device_->get(), stream_, s);
}

#undef RUNTIME_STREAM_CALL

CallResult<HostCallbackTicket> Stream::HostCallback(HostCallbackBody body) {
  const std::string callback = StreamExecutorCallback("host_callback");
  const SP_StreamExecutor& se = device_->se();
  if (se.host_callback == nullptr) return device_->session().MissingCallback("host_callback");
  HostCallbackLedger& ledger = device_->session().host_callbacks();
  HostCallbackTicket ticket = 0;
  void* arg = ledger.Enqueue(serial_, std::move(body), &ticket);
  const TF_Bool ok = PlainCall(device_->session(), callback).Run([&] {
    return se.host_callback(device_->get(), stream_, &HostCallbackLedger::Trampoline, arg);
  });
  if (ok == 0) {
    ledger.Withdraw(ticket);
    return Error{ErrorKind::kReturnedFalse, callback, TF_INTERNAL, "host_callback returned false"};
  }
  return ticket;
}

bool Stream::uses_block_host_fallback() const {
  return device_->se().block_host_until_done == nullptr;
}

CallStatus Stream::BlockHostUntilDone() {
  const SP_StreamExecutor& se = device_->se();
  if (se.block_host_until_done != nullptr) {
    return StatusCall(device_->session(), StreamExecutorCallback("block_host_until_done"))
        .Run([&](TF_Status* s) { se.block_host_until_done(device_->get(), stream_, s); });
  }
  // TensorFlow's fallback when the plugin has no block_host_until_done.
  auto event = device_->CreateEvent();
  if (!event.ok()) return event.error();
  if (CallStatus recorded = Record(*event); !recorded.ok()) return recorded;
  return event->BlockHost();
}

void Stream::Reset() {
  if (device_ == nullptr) return;
  // The stream's work must finish before destroy_stream. Waited for the way TensorFlow's eager
  // reads wait (an event polled, synchronize_all_activity), not with block_host_until_done,
  // which TensorFlow's recorded workload never calls (it never destroys a stream either).
  (void)WaitIdle(*this);
  const SP_StreamExecutor& se = device_->se();
  PlainCall(device_->session(), StreamExecutorCallback("destroy_stream")).Run([&] {
    se.destroy_stream(device_->get(), stream_);
  });
  device_->session().accounting().streams.destroyed.fetch_add(1);
  device_ = nullptr;
  stream_ = nullptr;
}

}  // namespace conformance::runtime
