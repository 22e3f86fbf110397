#pragma once
// An in-memory Backend for the engine's own tests: buffers are host vectors and streams run
// every operation at once (a legal, if eager, implementation). Knobs inject single defects so
// tests can see exactly what the executor reports, and how it localises a read-back that differs.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "runtime/byte_patterns.h"
#include "scenario/backend.h"

namespace conformance::scenario {

class FakeBackend : public Backend {
 public:
  int devices = 1;
  bool unified = true;
  uint64_t capacity = 1 << 20;
  bool dtoh_drops_last_byte = false;
  bool dtoh_drops_last_byte_of_odd_sizes = false;  // right on whole 4096-byte legs
  bool htod_shifted = false;                       // lands one byte later
  bool async_dtoh_late = false;                    // bytes reach the host only on Settle()
  int htod_late_on_stream = -1;  // this stream's host-to-device copies land only on Settle()
  bool dtod_ignores_src_offset = false;       // right on whole 4096-byte legs
  bool mem_zero_short_of_odd_sizes = false;   // right on whole 4096-byte legs
  std::optional<CallStatus> memset32_status;  // returned instead of filling
  EventState event_state_override = EventState::kComplete;
  bool override_event_state = false;
  bool second_buffer_shares_first = false;  // allocate hands slot 1 the memory of slot 0
  std::optional<WrongLeg> early_wait;       // what FindEarlyWait finds (when that wait was called)
  std::set<std::string> waits_probed;       // the waits the executor asked about
  std::optional<CallStatus> hold_status;    // what hold_stream's host_callback returns
  std::vector<int> held_streams;            // the streams hold_stream was called on

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
    if (second_buffer_shares_first && slot == 1) {
      shared_with_first_ = true;
      return true;
    }
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
  CallStatus MemcpyHtoD(std::optional<int> stream, BufferAt dst, const void* src,
                        uint64_t size) override {
    if (stream && *stream == htod_late_on_stream) {
      std::vector<uint8_t> bytes(static_cast<const uint8_t*>(src),
                                 static_cast<const uint8_t*>(src) + size);
      late_.push_back([this, dst, bytes] { std::memcpy(At(dst), bytes.data(), bytes.size()); });
    } else if (htod_shifted && size > 0) {
      std::memcpy(At(dst) + 1, src, size - 1);
    } else {
      std::memcpy(At(dst), src, size);
    }
    return {};
  }
  CallStatus MemcpyDtoH(std::optional<int> stream, void* dst, BufferAt src,
                        uint64_t size) override {
    const bool short_copy =
        (dtoh_drops_last_byte || (dtoh_drops_last_byte_of_odd_sizes && size % 2 == 1)) && size > 0;
    const uint64_t copied = short_copy ? size - 1 : size;
    if (async_dtoh_late && stream) {
      std::vector<uint8_t> snapshot(At(src), At(src) + copied);
      late_.push_back([dst, snapshot] { std::memcpy(dst, snapshot.data(), snapshot.size()); });
    } else {
      std::memcpy(dst, At(src), copied);
    }
    return {};
  }
  CallStatus MemcpyDtoD(std::optional<int>, BufferAt dst, BufferAt src, uint64_t size) override {
    if (dtod_ignores_src_offset) src.offset = 0;
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
    std::memset(At(dst), 0, mem_zero_short_of_odd_sizes && size % 2 == 1 ? size - 1 : size);
    return {};
  }
  CallStatus RecordEvent(int, int event) override {
    recorded_[event] = 1;
    return {};
  }
  CallStatus WaitForEvent(int, int) override { return {}; }
  CallStatus CreateStreamDependency(int, int) override { return {}; }
  CallStatus HoldStream(int stream) override {
    held_streams.push_back(stream);
    return hold_status.value_or(CallStatus{});
  }
  CallStatus BlockHostUntilDone(int) override { return {}; }
  CallStatus BlockHostForEvent(int) override { return {}; }
  CallStatus SynchronizeAllActivity(int) override { return {}; }
  CallStatus GetStreamStatus(int) override { return {}; }
  EventState GetEventStatus(int event) override {
    if (override_event_state) return event_state_override;
    return recorded_[event] ? EventState::kComplete : EventState::kUnknown;
  }

  int settled = 0;  // how often the executor synchronised everything
  void Settle() override {
    ++settled;
    for (auto& deliver : late_) deliver();
    late_.clear();
  }
  // The fake's buffers are host memory: read them directly.
  std::optional<std::vector<uint8_t>> ReadTrusted(BufferAt src, uint64_t size) override {
    return std::vector<uint8_t>(At(src), At(src) + size);
  }
  // Each copy and fill on its own (memset32 aside: a knob refuses it), on two scratch buffers of
  // 4096 bytes as the runtime layer does it (runtime/copy_legs.h), without known-good paths: the
  // fake's memory is the host's.
  // The fills done again on a scratch buffer of the step's size (copies: not modelled here).
  std::optional<WrongLeg> ReplayWrite(const WriteCall& write, uint64_t) override {
    if (write.call.ends_with("memcpy_dtod")) return std::nullopt;
    const int a = static_cast<int>(buffers_.size());
    buffers_.emplace_back(write.dst_size, 0xa5);
    std::vector<uint8_t> expected = buffers_[a];
    if (write.call == "mem_zero") {
      (void)MemZero(0, {a, write.dst_offset}, write.size);
      std::fill_n(expected.begin() + static_cast<std::ptrdiff_t>(write.dst_offset), write.size, 0);
    } else if (write.call == "memset") {
      (void)Memset(0, {a, write.dst_offset}, static_cast<uint8_t>(write.value), write.size);
      std::fill_n(expected.begin() + static_cast<std::ptrdiff_t>(write.dst_offset), write.size,
                  static_cast<uint8_t>(write.value));
    } else {
      return std::nullopt;
    }
    if (buffers_[a] == expected) return std::nullopt;
    return WrongLeg{write.call, "wrong bytes written",
                    "wrong bytes written by " + write.call + " done again on its own"};
  }
  std::optional<WrongLeg> FindWrongLeg(int, uint64_t seed) override {
    constexpr uint64_t kBytes = 4096;
    const int a = static_cast<int>(buffers_.size()), b = a + 1;
    buffers_.resize(buffers_.size() + 2);
    std::vector<uint8_t> pattern(kBytes);
    for (uint64_t i = 0; i < kBytes; ++i)
      pattern[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 8));
    std::optional<WrongLeg> found;
    auto judge = [&](const std::string& call, const std::vector<uint8_t>& expected,
                     const std::function<std::vector<uint8_t>()>& run) {
      if (found) return;
      buffers_[a].assign(kBytes, 0xa5);
      buffers_[b] = pattern;
      const std::vector<uint8_t> landed = run();
      if (landed == expected) return;
      found = WrongLeg{call, "wrong bytes written",
                       "wrong bytes written by " + call + " (" +
                           runtime::DescribeWrongBytes(
                               reinterpret_cast<const std::byte*>(landed.data()),
                               reinterpret_cast<const std::byte*>(expected.data()), kBytes) +
                           ")"};
    };
    judge("memcpy_htod", pattern, [&] {
      (void)MemcpyHtoD(0, {a, 0}, pattern.data(), kBytes);
      return buffers_[a];
    });
    judge("memcpy_dtoh", pattern, [&] {
      std::vector<uint8_t> host(kBytes, 0x5a);
      (void)MemcpyDtoH(std::nullopt, host.data(), {b, 0}, kBytes);
      return host;
    });
    judge("memcpy_dtod", pattern, [&] {
      (void)MemcpyDtoD(0, {a, 0}, {b, 0}, kBytes);
      return buffers_[a];
    });
    judge("memset", std::vector<uint8_t>(kBytes, 0x5a), [&] {
      (void)Memset(0, {a, 0}, 0x5a, kBytes);
      return buffers_[a];
    });
    judge("mem_zero", std::vector<uint8_t>(kBytes, 0), [&] {
      (void)MemZero(0, {a, 0}, kBytes);
      return buffers_[a];
    });
    buffers_.resize(buffers_.size() - 2);
    return found;
  }
  bool SharesMemory(int slot, int other) override { return Storage(slot) == Storage(other); }
  std::optional<WrongLeg> FindEarlyWait(int, const std::set<std::string>& waits) override {
    waits_probed = waits;
    if (early_wait && waits.contains(early_wait->failing_call)) return early_wait;
    return std::nullopt;
  }

 private:
  int Storage(int slot) const { return shared_with_first_ && slot == 1 ? 0 : slot; }
  uint8_t* At(BufferAt at) { return buffers_[Storage(at.slot)].data() + at.offset; }
  bool shared_with_first_ = false;
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<char> recorded_;
  std::vector<std::function<void()>> late_;
};

}  // namespace conformance::scenario
