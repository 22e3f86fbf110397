#pragma once
// An SP_Stream owned by the harness and every stream-level call. Destruction waits for the
// stream's work the way TensorFlow waits (runtime/wait_idle.h), then calls destroy_stream.
#include <cstdint>

#include "runtime/call_error.h"
#include "runtime/device_buffer.h"
#include "runtime/host_callback_ledger.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::runtime {

class Device;
class Event;

class Stream {
 public:
  Stream() = default;
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  bool valid() const { return device_ != nullptr; }
  SP_Stream get() const { return stream_; }
  Device* device() const { return device_; }
  std::uint64_t serial() const { return serial_; }

  CallStatus MemcpyHtoD(const DeviceRange& dst, const void* src, std::uint64_t size);
  CallStatus MemcpyDtoH(void* dst, const DeviceRange& src, std::uint64_t size);
  CallStatus MemcpyDtoD(const DeviceRange& dst, const DeviceRange& src, std::uint64_t size);
  CallStatus MemZero(const DeviceRange& location, std::uint64_t size);
  CallStatus Memset(const DeviceRange& location, std::uint8_t pattern, std::uint64_t size);
  CallStatus Memset32(const DeviceRange& location, std::uint32_t pattern,
                      std::uint64_t size);  // size in bytes

  // host_callback with exactly-once accounting in the session's HostCallbackLedger. A false
  // return is kReturnedFalse (the ticket is withdrawn: the plugin will not call it).
  CallResult<HostCallbackTicket> HostCallback(HostCallbackBody body);

  // create_stream_dependency(this, other): work queued on this stream later waits for what
  // `other` has queued so far.
  CallStatus WaitFor(const Stream& other);
  CallStatus WaitFor(const Event& event);  // wait_for_event
  CallStatus Record(const Event& event);   // record_event

  // block_host_until_done, or TensorFlow's fallback when it is NULL (create_event,
  // record_event, block_host_for_event, destroy_event).
  CallStatus BlockHostUntilDone();
  bool uses_block_host_fallback() const;
  // get_stream_status.
  CallStatus GetStatus();

  // Destroy now (idempotent): block until done, then destroy_stream.
  void Reset();

 private:
  friend class Device;
  Stream(Device* device, SP_Stream stream, std::uint64_t serial)
      : device_(device), stream_(stream), serial_(serial) {}
  Device* device_ = nullptr;
  SP_Stream stream_ = nullptr;
  std::uint64_t serial_ = 0;
};

}  // namespace conformance::runtime
