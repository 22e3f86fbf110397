#pragma once
// The Backend that drives a real plugin: scenario slots mapped onto the runtime layer's RAII
// wrappers (harness/runtime), which poison statuses and out-params and mark every call in
// flight, so a crash inside the plugin is attributed to the callback that was running.
#include <memory>
#include <vector>

#include "runtime/runtime.h"
#include "runtime/stream_gate.h"
#include "scenario/backend.h"

namespace conformance::scenario {

class RuntimeBackend : public Backend {
 public:
  explicit RuntimeBackend(runtime::DeviceSession& session) : session_(session) {}
  ~RuntimeBackend() override;

  void Reserve(int buffers, int streams, int events) override;
  std::map<std::string, std::string> LastAllocationBlame() const override {
    return last_allocation_blame_;
  }
  int DeviceCount() override;
  bool SupportsUnifiedMemory() override;
  std::optional<uint64_t> DeviceCapacity(int device) override;

  bool Allocate(int slot, BufferKind kind, int device, uint64_t size) override;
  bool LastUnexpectedAllocationUsable() const override { return last_unexpected_usable_; }
  void Deallocate(int slot) override;
  void DeallocateNull(BufferKind kind, int device) override;
  uint8_t* HostAddress(int slot) override;

  CallStatus CreateStream(int slot, int device) override;
  void DestroyStream(int slot) override;
  CallStatus CreateEvent(int slot, int device) override;
  void DestroyEvent(int slot) override;

  CallStatus MemcpyHtoD(std::optional<int> stream, BufferAt dst, const void* src,
                        uint64_t size) override;
  CallStatus MemcpyDtoH(std::optional<int> stream, void* dst, BufferAt src, uint64_t size) override;
  CallStatus MemcpyDtoD(std::optional<int> stream, BufferAt dst, BufferAt src,
                        uint64_t size) override;
  CallStatus Memset(int stream, BufferAt dst, uint8_t value, uint64_t size) override;
  CallStatus Memset32(int stream, BufferAt dst, uint32_t value, uint64_t size) override;
  CallStatus MemZero(int stream, BufferAt dst, uint64_t size) override;

  CallStatus RecordEvent(int stream, int event) override;
  CallStatus WaitForEvent(int stream, int event) override;
  CallStatus CreateStreamDependency(int dependent, int other) override;
  CallStatus HoldStream(int stream) override;
  CallStatus BlockHostUntilDone(int stream) override;
  CallStatus BlockHostForEvent(int event) override;
  CallStatus SynchronizeAllActivity(int device) override;
  CallStatus GetStreamStatus(int stream) override;
  EventState GetEventStatus(int event) override;

  void Settle() override;
  std::optional<std::vector<uint8_t>> ReadTrusted(BufferAt src, uint64_t size) override;
  std::optional<WrongLeg> FindWrongLeg(int device, uint64_t seed) override;
  std::optional<WrongLeg> FindEarlyWait(int device, const std::set<std::string>& waits) override;
  std::optional<WrongLeg> ReplayWrite(const WriteCall& write, uint64_t seed) override;
  bool SharesMemory(int slot, int other) override;

 private:
  std::map<std::string, std::string> last_allocation_blame_;
  bool last_unexpected_usable_ = false;  // LastUnexpectedAllocationUsable
  struct BufferEntry {
    BufferKind kind = BufferKind::kDevice;
    runtime::Device* device = nullptr;
    runtime::DeviceBuffer device_buffer;
    runtime::HostBuffer host_buffer;
    runtime::UnifiedBuffer unified_buffer;
  };

  runtime::Device* DeviceAt(int ordinal);
  runtime::DeviceRange Range(BufferAt at, uint64_t size) const;

  void OpenHolds();

  runtime::DeviceSession& session_;
  // Every hold_stream's gate, so localising and tearing down never wait out a hold.
  std::vector<std::shared_ptr<runtime::StreamGate>> holds_;
  // Declared in the order that makes destruction safe: streams drain (their queued work may
  // still touch buffers) before events and buffers go.
  std::vector<BufferEntry> buffers_;
  std::vector<runtime::Event> events_;
  std::vector<runtime::Stream> streams_;
};

}  // namespace conformance::scenario
