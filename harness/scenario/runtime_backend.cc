#include "scenario/runtime_backend.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>

#include "runtime/allocation_probe.h"
#include "runtime/blame.h"
#include "runtime/byte_patterns.h"
#include "runtime/copy_legs.h"
#include "runtime/stream_hold.h"
#include "runtime/wait_idle.h"
#include "runtime/wait_probe.h"

namespace conformance::scenario {
namespace {

// hold_stream: the scenario's thread must sleep this long in a wait before the hold opens (a
// wait that needs the held work sleeps until then; one that does not never sleeps that long),
// and no hold lasts longer than the limit, whatever the thread does.
constexpr std::chrono::milliseconds kHoldWaitingStreak{100};
constexpr std::chrono::milliseconds kHoldLimit{2000};

// Read-back localisation reads at most this much of a buffer at once.
constexpr uint64_t kWholeBufferLimit = uint64_t{64} << 20;

CallStatus From(const runtime::CallStatus& status) {
  if (status.ok()) return {};
  const runtime::Error& error = status.error();
  std::map<std::string, std::string> blame = runtime::BlameOf(error);
  return CallStatus{static_cast<int>(error.code),
                    error.Describe(),
                    error.kind == runtime::ErrorKind::kUnsupported ||
                        (error.kind == runtime::ErrorKind::kMissingCallback &&
                         error.callback == runtime::StreamExecutorCallback("sync_memcpy_dtod")),
                    error.kind != runtime::ErrorKind::kPluginStatus,
                    blame["failing_call"],
                    blame["problem"]};
}

// The harness's own verdict (INTERNAL) for a step on a device it could not open.
CallStatus DeviceUnavailable(int device) {
  CallStatus status;
  status.code = 13;
  status.message = "device " + std::to_string(device) + " could not be created";
  status.synthesized = true;
  return status;
}

template <typename T>
CallStatus From(const runtime::CallResult<T>& result) {
  return result.ok() ? CallStatus{} : From(result.status());
}

}  // namespace

RuntimeBackend::~RuntimeBackend() {
  OpenHolds();
  // Explicitly, newest first, rather than by member order alone: a stream's destructor waits
  // for its queue, which may still read buffers and record events.
  for (auto it = streams_.rbegin(); it != streams_.rend(); ++it) it->Reset();
  for (auto it = events_.rbegin(); it != events_.rend(); ++it) it->Reset();
  for (auto it = buffers_.rbegin(); it != buffers_.rend(); ++it) {
    it->device_buffer.Reset();
    it->host_buffer.Reset();
    it->unified_buffer.Reset();
  }
}

void RuntimeBackend::Reserve(int buffers, int streams, int events) {
  buffers_.resize(static_cast<std::size_t>(buffers));
  streams_.resize(static_cast<std::size_t>(streams));
  events_.resize(static_cast<std::size_t>(events));
}

int RuntimeBackend::DeviceCount() {
  auto count = session_.DeviceCount();
  return count.ok() ? count.value() : 0;
}

bool RuntimeBackend::SupportsUnifiedMemory() { return session_.supports_unified_memory(); }

std::optional<uint64_t> RuntimeBackend::DeviceCapacity(int device) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return std::nullopt;
  auto usage = target->MemoryUsage();
  if (!usage.ok() || !usage->returned_true || !usage->total_written || usage->total <= 0)
    return std::nullopt;
  return static_cast<uint64_t>(usage->total);
}

runtime::Device* RuntimeBackend::DeviceAt(int ordinal) {
  auto device = session_.GetDevice(ordinal);
  return device.ok() ? device.value() : nullptr;
}

runtime::DeviceRange RuntimeBackend::Range(BufferAt at, uint64_t size) const {
  const BufferEntry& entry = buffers_[static_cast<std::size_t>(at.slot)];
  if (entry.kind == BufferKind::kUnified) {
    return runtime::DeviceRange(static_cast<uint8_t*>(entry.unified_buffer.data()) + at.offset,
                                size, 0);
  }
  // The whole buffer carries its payload, a slice does not: exactly as TensorFlow passes them.
  if (at.offset == 0 && size == entry.device_buffer.requested()) return entry.device_buffer.All();
  return entry.device_buffer.Range(at.offset, size);
}

bool RuntimeBackend::Allocate(int slot, BufferKind kind, int device, uint64_t size) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return false;
  last_unexpected_usable_ = false;
  BufferEntry scratch;  // an allocation expected to fail lands here and is freed at once
  BufferEntry& entry = slot >= 0 ? buffers_[static_cast<std::size_t>(slot)] : scratch;
  entry.kind = kind;
  entry.device = target;
  switch (kind) {
    case BufferKind::kDevice: {
      auto buffer = target->Allocate(size);
      if (!buffer.ok()) {
        last_allocation_blame_ = runtime::BlameOf(buffer.error());
        return false;
      }
      entry.device_buffer = std::move(buffer.value());
      last_unexpected_usable_ =
          slot < 0 && runtime::UsableNearEnd(*target, entry.device_buffer, size);
      return true;
    }
    case BufferKind::kHost: {
      auto buffer = target->AllocateHost(size);
      if (!buffer.ok()) {
        last_allocation_blame_ = runtime::BlameOf(buffer.error());
        return false;
      }
      entry.host_buffer = std::move(buffer.value());
      return entry.host_buffer.valid();
    }
    case BufferKind::kUnified: {
      auto buffer = target->AllocateUnified(size);
      if (!buffer.ok()) {
        last_allocation_blame_ = runtime::BlameOf(buffer.error());
        return false;
      }
      entry.unified_buffer = std::move(buffer.value());
      return entry.unified_buffer.valid();
    }
  }
  return false;
}

void RuntimeBackend::Deallocate(int slot) {
  BufferEntry& entry = buffers_[static_cast<std::size_t>(slot)];
  entry.device_buffer.Reset();
  entry.host_buffer.Reset();
  entry.unified_buffer.Reset();
}

void RuntimeBackend::DeallocateNull(BufferKind kind, int device) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return;
  const SP_StreamExecutor& se = target->se();
  switch (kind) {
    case BufferKind::kDevice: target->DeallocateRaw(nullptr, 0, 0); return;
    case BufferKind::kHost:
      runtime::PlainCall(session_, runtime::StreamExecutorCallback("host_memory_deallocate"))
          .Run([&] { se.host_memory_deallocate(target->get(), nullptr); });
      return;
    case BufferKind::kUnified:
      runtime::PlainCall(session_, runtime::StreamExecutorCallback("unified_memory_deallocate"))
          .Run([&] { se.unified_memory_deallocate(target->get(), nullptr); });
      return;
  }
}

uint8_t* RuntimeBackend::HostAddress(int slot) {
  BufferEntry& entry = buffers_[static_cast<std::size_t>(slot)];
  return static_cast<uint8_t*>(entry.kind == BufferKind::kUnified ? entry.unified_buffer.data()
                                                                  : entry.host_buffer.data());
}

CallStatus RuntimeBackend::CreateStream(int slot, int device) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return DeviceUnavailable(device);
  auto stream = target->CreateStream();
  if (stream.ok() && slot >= 0)
    streams_[static_cast<std::size_t>(slot)] = std::move(stream.value());
  return From(stream);
}

void RuntimeBackend::DestroyStream(int slot) { streams_[static_cast<std::size_t>(slot)].Reset(); }

CallStatus RuntimeBackend::CreateEvent(int slot, int device) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return DeviceUnavailable(device);
  auto event = target->CreateEvent();
  if (event.ok() && slot >= 0) events_[static_cast<std::size_t>(slot)] = std::move(event.value());
  return From(event);
}

void RuntimeBackend::DestroyEvent(int slot) { events_[static_cast<std::size_t>(slot)].Reset(); }

CallStatus RuntimeBackend::MemcpyHtoD(std::optional<int> stream, BufferAt dst, const void* src,
                                      uint64_t size) {
  const runtime::DeviceRange range = Range(dst, size);
  if (stream) return From(streams_[static_cast<std::size_t>(*stream)].MemcpyHtoD(range, src, size));
  return From(
      buffers_[static_cast<std::size_t>(dst.slot)].device->SyncMemcpyHtoD(range, src, size));
}

CallStatus RuntimeBackend::MemcpyDtoH(std::optional<int> stream, void* dst, BufferAt src,
                                      uint64_t size) {
  const runtime::DeviceRange range = Range(src, size);
  if (stream) return From(streams_[static_cast<std::size_t>(*stream)].MemcpyDtoH(dst, range, size));
  return From(
      buffers_[static_cast<std::size_t>(src.slot)].device->SyncMemcpyDtoH(dst, range, size));
}

CallStatus RuntimeBackend::MemcpyDtoD(std::optional<int> stream, BufferAt dst, BufferAt src,
                                      uint64_t size) {
  const runtime::DeviceRange to = Range(dst, size);
  const runtime::DeviceRange from = Range(src, size);
  if (stream) return From(streams_[static_cast<std::size_t>(*stream)].MemcpyDtoD(to, from, size));
  return From(buffers_[static_cast<std::size_t>(dst.slot)].device->SyncMemcpyDtoD(to, from, size));
}

CallStatus RuntimeBackend::Memset(int stream, BufferAt dst, uint8_t value, uint64_t size) {
  return From(streams_[static_cast<std::size_t>(stream)].Memset(Range(dst, size), value, size));
}

CallStatus RuntimeBackend::Memset32(int stream, BufferAt dst, uint32_t value, uint64_t size) {
  return From(streams_[static_cast<std::size_t>(stream)].Memset32(Range(dst, size), value, size));
}

CallStatus RuntimeBackend::MemZero(int stream, BufferAt dst, uint64_t size) {
  return From(streams_[static_cast<std::size_t>(stream)].MemZero(Range(dst, size), size));
}

CallStatus RuntimeBackend::RecordEvent(int stream, int event) {
  return From(
      streams_[static_cast<std::size_t>(stream)].Record(events_[static_cast<std::size_t>(event)]));
}

CallStatus RuntimeBackend::WaitForEvent(int stream, int event) {
  return From(
      streams_[static_cast<std::size_t>(stream)].WaitFor(events_[static_cast<std::size_t>(event)]));
}

CallStatus RuntimeBackend::CreateStreamDependency(int dependent, int other) {
  return From(streams_[static_cast<std::size_t>(dependent)].WaitFor(
      streams_[static_cast<std::size_t>(other)]));
}

CallStatus RuntimeBackend::HoldStream(int stream) {
  runtime::StreamHold hold = runtime::HoldStream(streams_[static_cast<std::size_t>(stream)],
                                                 kHoldWaitingStreak, kHoldLimit);
  if (hold.queued.ok()) holds_.push_back(std::move(hold.gate));
  return From(hold.queued);
}

void RuntimeBackend::OpenHolds() {
  for (const auto& gate : holds_) gate->Open();
}

CallStatus RuntimeBackend::BlockHostUntilDone(int stream) {
  return From(streams_[static_cast<std::size_t>(stream)].BlockHostUntilDone());
}

CallStatus RuntimeBackend::BlockHostForEvent(int event) {
  return From(events_[static_cast<std::size_t>(event)].BlockHost());
}

CallStatus RuntimeBackend::SynchronizeAllActivity(int device) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return DeviceUnavailable(device);
  return From(target->SynchronizeAllActivity());
}

CallStatus RuntimeBackend::GetStreamStatus(int stream) {
  return From(streams_[static_cast<std::size_t>(stream)].GetStatus());
}

EventState RuntimeBackend::GetEventStatus(int event) {
  switch (events_[static_cast<std::size_t>(event)].Poll()) {
    case SE_EVENT_PENDING: return EventState::kPending;
    case SE_EVENT_COMPLETE: return EventState::kComplete;
    case SE_EVENT_ERROR: return EventState::kError;
    default: return EventState::kUnknown;
  }
}

void RuntimeBackend::Settle() {
  OpenHolds();
  std::set<runtime::Device*> devices;
  for (runtime::Stream& stream : streams_) {
    if (!stream.valid()) continue;
    (void)runtime::WaitIdle(stream,
                            /*device_wide=*/false);  // errors belong to the steps' own checks
    devices.insert(stream.device());
  }
  for (const BufferEntry& entry : buffers_) {
    if (entry.device) devices.insert(entry.device);
  }
  for (runtime::Device* device : devices) (void)device->SynchronizeAllActivity();
}

std::optional<std::vector<uint8_t>> RuntimeBackend::ReadTrusted(BufferAt src, uint64_t size) {
  BufferEntry& entry = buffers_[static_cast<std::size_t>(src.slot)];
  if (entry.kind != BufferKind::kDevice) {
    const auto* host = HostAddress(src.slot) + src.offset;
    return std::vector<uint8_t>(host, host + size);
  }
  if (!entry.device || !entry.device_buffer.valid()) return std::nullopt;
  auto stream = entry.device->CreateStream();
  if (!stream.ok() || !runtime::KnownGoodPaths(*stream).trusted) return std::nullopt;
  // The whole buffer where affordable: whole buffers are what the paths were proven on, and a
  // copy wrong only for some offsets or sizes must not distort the second look.
  const bool whole = entry.device_buffer.requested() <= kWholeBufferLimit;
  auto bytes = runtime::CopyOut(*stream, whole ? entry.device_buffer.All() : Range(src, size));
  if (!bytes.ok()) return std::nullopt;
  const uint64_t skip = whole ? src.offset : 0;
  if (bytes->size() < skip + size) return std::nullopt;
  std::vector<uint8_t> out(size);
  if (size > 0) std::memcpy(out.data(), bytes->data() + skip, size);
  return out;
}

std::optional<WrongLeg> RuntimeBackend::FindWrongLeg(int device, uint64_t seed) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return std::nullopt;
  auto stream = target->CreateStream();
  // Without a way in and out that round-trips, no leg can be judged on its own.
  if (!stream.ok() || !runtime::KnownGoodPaths(*stream).trusted) return std::nullopt;
  std::vector<runtime::LegFault> faults = runtime::FindWrongLegs(*stream, seed);
  if (faults.empty()) return std::nullopt;
  return WrongLeg{faults.front().failing_call, faults.front().problem, faults.front().description};
}

std::optional<WrongLeg> RuntimeBackend::FindEarlyWait(int device,
                                                      const std::set<std::string>& waits) {
  runtime::Device* target = DeviceAt(device);
  if (!target) return std::nullopt;
  auto fault = runtime::FindEarlyWait(*target, waits);
  if (!fault) return std::nullopt;
  return WrongLeg{fault->failing_call, fault->problem, fault->description};
}

bool RuntimeBackend::SharesMemory(int slot, int other) {
  BufferEntry& mine = buffers_[static_cast<std::size_t>(slot)];
  BufferEntry& theirs = buffers_[static_cast<std::size_t>(other)];
  if (mine.kind != BufferKind::kDevice || theirs.kind != BufferKind::kDevice || !mine.device ||
      !theirs.device || !mine.device_buffer.valid() || !theirs.device_buffer.valid())
    return false;
  constexpr uint64_t kProbeBytes = uint64_t{64} << 10;  // shared memory shows from byte 0
  const uint64_t size = std::min<uint64_t>(
      {mine.device_buffer.requested(), theirs.device_buffer.requested(), kProbeBytes});
  if (size == 0) return false;
  auto their_stream = theirs.device->CreateStream();
  auto my_stream = mine.device->CreateStream();
  if (!their_stream.ok() || !my_stream.ok() || !runtime::KnownGoodPaths(*their_stream).trusted ||
      !runtime::KnownGoodPaths(*my_stream).trusted)
    return false;
  // Two different patterns in turn: memory of its own never follows both.
  for (const uint64_t seed : {0x5A11A5ULL, 0xA55A11ULL}) {
    const std::vector<std::byte> pattern = runtime::SeededBytes(seed, size);
    if (!runtime::CopyIn(*their_stream, theirs.device_buffer.Range(0, size), pattern).ok())
      return false;
    auto seen = runtime::CopyOut(*my_stream, mine.device_buffer.Range(0, size));
    if (!seen.ok() || *seen != pattern) return false;
  }
  return true;
}

}  // namespace conformance::scenario
