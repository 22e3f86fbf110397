#pragma once
// An in-memory Backend for the engine's own tests: buffers are host vectors and streams run
// every operation at once (a legal, if eager, implementation). Knobs inject single defects so
// tests can see exactly what the executor reports.
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "scenario/backend.h"

namespace conformance::scenario {

class FakeBackend : public Backend {
 public:
  int devices = 1;
  bool unified = true;
  uint64_t capacity = 1 << 20;
  bool dtoh_drops_last_byte = false;
  std::optional<CallStatus> memset32_status;  // returned instead of filling
  EventState event_state_override = EventState::kComplete;
  bool override_event_state = false;

  void Reserve(int buffers, int streams, int events) override {
    buffers_.resize(buffers);
    (void)streams;
    recorded_.assign(static_cast<std::size_t>(events), 0);
  }
  int DeviceCount() override { return devices; }
  bool SupportsUnifiedMemory() override { return unified; }
  std::optional<uint64_t> DeviceCapacity(int) override { return capacity; }
  bool Allocate(int slot, BufferKind, int, uint64_t size) override {
    if (size > capacity) return false;
    if (slot >= 0) buffers_[slot].assign(size, 0xcd);
    return true;
  }
  void Deallocate(int slot) override { buffers_[slot].clear(); }
  void DeallocateNull(BufferKind, int) override {}
  uint8_t* HostAddress(int slot) override { return buffers_[slot].data(); }
  CallStatus CreateStream(int, int) override { return {}; }
  void DestroyStream(int) override {}
  CallStatus CreateEvent(int, int) override { return {}; }
  void DestroyEvent(int) override {}
  CallStatus MemcpyHtoD(std::optional<int>, BufferAt dst, const void* src, uint64_t size) override {
    std::memcpy(At(dst), src, size);
    return {};
  }
  CallStatus MemcpyDtoH(std::optional<int>, void* dst, BufferAt src, uint64_t size) override {
    std::memcpy(dst, At(src), dtoh_drops_last_byte && size > 0 ? size - 1 : size);
    return {};
  }
  CallStatus MemcpyDtoD(std::optional<int>, BufferAt dst, BufferAt src, uint64_t size) override {
    std::memmove(At(dst), At(src), size);
    return {};
  }
  CallStatus Memset(int, BufferAt dst, uint8_t value, uint64_t size) override {
    std::memset(At(dst), value, size);
    return {};
  }
  CallStatus Memset32(int, BufferAt dst, uint32_t value, uint64_t size) override {
    if (memset32_status) return *memset32_status;
    for (uint64_t i = 0; i < size; i += 4) std::memcpy(At(dst) + i, &value, 4);
    return {};
  }
  CallStatus MemZero(int, BufferAt dst, uint64_t size) override {
    std::memset(At(dst), 0, size);
    return {};
  }
  CallStatus RecordEvent(int, int event) override {
    recorded_[event] = 1;
    return {};
  }
  CallStatus WaitForEvent(int, int) override { return {}; }
  CallStatus CreateStreamDependency(int, int) override { return {}; }
  CallStatus BlockHostUntilDone(int) override { return {}; }
  CallStatus BlockHostForEvent(int) override { return {}; }
  CallStatus SynchronizeAllActivity(int) override { return {}; }
  CallStatus GetStreamStatus(int) override { return {}; }
  EventState GetEventStatus(int event) override {
    if (override_event_state) return event_state_override;
    return recorded_[event] ? EventState::kComplete : EventState::kUnknown;
  }

 private:
  uint8_t* At(BufferAt at) { return buffers_[at.slot].data() + at.offset; }
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<char> recorded_;
};

}  // namespace conformance::scenario
