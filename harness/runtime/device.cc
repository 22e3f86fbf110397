#include "runtime/device.h"

#include <optional>
#include <string>

#include "isolate/in_flight.h"
#include "runtime/device_session.h"
#include "runtime/event.h"
#include "runtime/interior_note.h"
#include "runtime/plugin_call.h"
#include "runtime/sentinels.h"
#include "runtime/stream.h"
#include "runtime/tensorflow_calls.h"

namespace conformance::runtime {
namespace {

std::string Bytes(std::uint64_t size) { return std::to_string(size) + " bytes"; }

}  // namespace

Device::Device(DeviceSession& session, int ordinal, const SP_Device& filled)
    : session_(session), ordinal_(ordinal), device_(filled) {}

const SP_StreamExecutor& Device::se() const { return session_.stream_executor(); }

CallResult<DeviceBuffer> Device::Allocate(std::uint64_t size, std::int64_t memory_space) {
  const std::string callback = StreamExecutorCallback("allocate");
  // TensorFlow pre-sets struct_size; the rest is poisoned so "never written" shows.
  SP_DeviceMemoryBase mem{};
  mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem.opaque = PoisonPointer<void*>();
  mem.size = kPoisonU64;
  mem.payload = kPoisonU64;
  std::optional<in_flight::OffTensorFlowPath> off_path;
  if (size < kSmallestAllocationTensorFlowRequests)
    off_path.emplace(NeverCalledByTensorFlow("allocate(0)"));
  PlainCall(session_, callback).Run([&] { se().allocate(&device_, size, memory_space, &mem); });
  off_path.reset();

  if (mem.struct_size == 0) {
    session_.findings().Record(
        FindingKind::kStructSizeZero, callback,
        "allocate(" + Bytes(size) + ") left SP_DeviceMemoryBase.struct_size 0");
  }
  if (IsPoisonPointer(mem.opaque)) {
    session_.findings().Record(FindingKind::kAllocationOpaqueNotWritten, callback,
                               "allocate(" + Bytes(size) + ") never wrote opaque");
    return Error{ErrorKind::kOutParamNotWritten, callback, TF_RESOURCE_EXHAUSTED,
                 "allocate(" + Bytes(size) +
                     ") never wrote opaque (TensorFlow pre-fills NULL: a failed allocation)"};
  }
  if (mem.opaque == nullptr) {
    return Error{ErrorKind::kAllocationFailed, callback, TF_RESOURCE_EXHAUSTED,
                 "allocate(" + Bytes(size) + ") returned opaque NULL"};
  }
  DeviceBuffer buffer;
  buffer.device_ = this;
  buffer.opaque_ = mem.opaque;
  buffer.requested_ = size;
  buffer.struct_size_after_ = mem.struct_size;
  buffer.size_written_ = mem.size != kPoisonU64;
  buffer.size_ = buffer.size_written_ ? mem.size : size;
  buffer.payload_written_ = mem.payload != kPoisonU64;
  buffer.payload_ = buffer.payload_written_ ? mem.payload : 0;  // TensorFlow's zero pre-fill
  if (!buffer.size_written_) {
    session_.findings().Record(FindingKind::kAllocationSizeNotWritten, callback,
                               "allocate(" + Bytes(size) + ") wrote opaque but not size");
  } else if (mem.size < size) {
    session_.findings().Record(
        FindingKind::kAllocationSizeTooSmall, callback,
        "allocate(" + Bytes(size) + ") wrote size " + std::to_string(mem.size));
  }
  session_.accounting().device_buffers.created.fetch_add(1);
  return buffer;
}

void Device::DeallocateRaw(void* opaque, std::uint64_t size, std::uint64_t payload) {
  SP_DeviceMemoryBase mem = DeviceRange(opaque, size, payload).ToC();
  PlainCall(session_, StreamExecutorCallback("deallocate")).Run([&] {
    se().deallocate(&device_, &mem);
  });
}

CallResult<HostBuffer> Device::AllocateHost(std::uint64_t size) {
  const std::string callback = StreamExecutorCallback("host_memory_allocate");
  void* data =
      PlainCall(session_, callback).Run([&] { return se().host_memory_allocate(&device_, size); });
  if (data == nullptr) {
    if (size == 0) return HostBuffer();  // nothing to own
    return Error{ErrorKind::kAllocationFailed, callback, TF_INTERNAL,
                 "Failed to allocate HostMemory of size " + std::to_string(size)};
  }
  session_.accounting().host_buffers.created.fetch_add(1);
  return HostBuffer(this, data, size);
}

CallResult<UnifiedBuffer> Device::AllocateUnified(std::uint64_t size) {
  const std::string callback = StreamExecutorCallback("unified_memory_allocate");
  if (!session_.supports_unified_memory()) {
    return Error{ErrorKind::kUnsupported, callback, TF_UNIMPLEMENTED,
                 "SP_Platform.supports_unified_memory is not set"};
  }
  if (se().unified_memory_allocate == nullptr)
    return session_.MissingCallback("unified_memory_allocate");
  void* data = PlainCall(session_, callback).Run([&] {
    return se().unified_memory_allocate(&device_, size);
  });
  if (data == nullptr) {
    if (size == 0) return UnifiedBuffer();
    return Error{
        ErrorKind::kAllocationFailed, callback, TF_INTERNAL,
        "unified_memory_allocate(" + Bytes(size) + ") returned NULL (TensorFlow CHECK-fails)"};
  }
  session_.accounting().unified_buffers.created.fetch_add(1);
  return UnifiedBuffer(this, data, size);
}

CallResult<Stream> Device::CreateStream() {
  const std::string callback = StreamExecutorCallback("create_stream");
  SP_Stream stream = PoisonPointer<SP_Stream>();
  CallStatus status = StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().create_stream(&device_, &stream, s);
  });
  if (!status.ok()) return status.error();
  if (IsPoisonPointer(stream)) {
    // TensorFlow pre-fills the handle with NULL and carries on with it (NULL is a legal handle
    // for core; a synchronous plugin may never look at it). Recorded once for
    // runtime.handles.written; whatever breaks later is blamed on the call that breaks.
    session_.findings().Record(
        FindingKind::kOutParamNotWritten, callback,
        "create_stream returned OK without writing *stream (carried on with TensorFlow's "
        "pre-filled NULL)");
    stream = nullptr;
  }
  session_.accounting().streams.created.fetch_add(1);
  return Stream(this, stream, session_.NextSerial());
}

CallResult<Event> Device::CreateEvent() {
  const std::string callback = StreamExecutorCallback("create_event");
  SP_Event event = PoisonPointer<SP_Event>();
  CallStatus status = StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().create_event(&device_, &event, s);
  });
  if (!status.ok()) return status.error();
  if (IsPoisonPointer(event)) {
    session_.findings().Record(
        FindingKind::kOutParamNotWritten, callback,
        "create_event returned OK without writing *event (carried on with TensorFlow's "
        "pre-filled NULL)");
    event = nullptr;
  }
  session_.accounting().events.created.fetch_add(1);
  return Event(this, event, session_.NextSerial());
}

CallStatus Device::SyncMemcpyHtoD(const DeviceRange& dst, const void* src, std::uint64_t size) {
  const std::string callback = StreamExecutorCallback("sync_memcpy_htod");
  if (se().sync_memcpy_htod == nullptr) return session_.MissingCallback("sync_memcpy_htod");
  const auto note = InteriorNote({&dst});
  SP_DeviceMemoryBase d = dst.ToC();
  return StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().sync_memcpy_htod(&device_, &d, src, size, s);
  });
}

CallStatus Device::SyncMemcpyDtoH(void* dst, const DeviceRange& src, std::uint64_t size) {
  const std::string callback = StreamExecutorCallback("sync_memcpy_dtoh");
  if (se().sync_memcpy_dtoh == nullptr) return session_.MissingCallback("sync_memcpy_dtoh");
  const auto note = InteriorNote({&src});
  const SP_DeviceMemoryBase s_mem = src.ToC();
  return StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().sync_memcpy_dtoh(&device_, dst, &s_mem, size, s);
  });
}

CallStatus Device::SyncMemcpyDtoD(const DeviceRange& dst, const DeviceRange& src,
                                  std::uint64_t size) {
  const std::string callback = StreamExecutorCallback("sync_memcpy_dtod");
  if (se().sync_memcpy_dtod == nullptr) return session_.MissingCallback("sync_memcpy_dtod");
  const auto note = InteriorNote({&dst, &src});
  SP_DeviceMemoryBase d = dst.ToC();
  const SP_DeviceMemoryBase s_mem = src.ToC();
  return StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().sync_memcpy_dtod(&device_, &d, &s_mem, size, s);
  });
}

CallStatus Device::SynchronizeAllActivity() {
  const std::string callback = StreamExecutorCallback("synchronize_all_activity");
  if (se().synchronize_all_activity == nullptr)
    return session_.MissingCallback("synchronize_all_activity");
  return StatusCall(session_, callback).Run([&](TF_Status* s) {
    se().synchronize_all_activity(&device_, s);
  });
}

CallResult<AllocatorStatsReading> Device::AllocatorStats() {
  const std::string callback = StreamExecutorCallback("get_allocator_stats");
  if (se().get_allocator_stats == nullptr) return session_.MissingCallback("get_allocator_stats");
  SP_AllocatorStats stats{};
  stats.struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  for (std::int64_t* field :
       {&stats.num_allocs, &stats.bytes_in_use, &stats.peak_bytes_in_use, &stats.largest_alloc_size,
        &stats.bytes_limit, &stats.bytes_reserved, &stats.peak_bytes_reserved,
        &stats.bytes_reservable_limit, &stats.largest_free_block_bytes}) {
    *field = kPoisonI64;
  }
  stats.has_bytes_limit = kPoisonBool;
  stats.has_bytes_reservable_limit = kPoisonBool;
  const TF_Bool ok =
      PlainCall(session_, callback).Run([&] { return se().get_allocator_stats(&device_, &stats); });

  AllocatorStatsReading reading;
  reading.returned_true = ok != 0;
  reading.struct_size = stats.struct_size;
  // Unwritten fields read as TensorFlow would see them: zero.
  auto read = [](std::int64_t value, bool* written) {
    if (written != nullptr) *written = value != kPoisonI64;
    return value == kPoisonI64 ? 0 : value;
  };
  reading.num_allocs = read(stats.num_allocs, &reading.num_allocs_written);
  reading.bytes_in_use = read(stats.bytes_in_use, &reading.bytes_in_use_written);
  reading.peak_bytes_in_use = read(stats.peak_bytes_in_use, &reading.peak_bytes_in_use_written);
  reading.largest_alloc_size = read(stats.largest_alloc_size, &reading.largest_alloc_size_written);
  reading.bytes_limit = read(stats.bytes_limit, &reading.bytes_limit_written);
  reading.bytes_reserved = read(stats.bytes_reserved, nullptr);
  reading.peak_bytes_reserved = read(stats.peak_bytes_reserved, nullptr);
  reading.bytes_reservable_limit = read(stats.bytes_reservable_limit, nullptr);
  reading.largest_free_block_bytes = read(stats.largest_free_block_bytes, nullptr);
  reading.has_bytes_limit_written = stats.has_bytes_limit != kPoisonBool;
  reading.has_bytes_limit = reading.has_bytes_limit_written && stats.has_bytes_limit != 0;
  if (reading.returned_true && (!reading.num_allocs_written || !reading.bytes_in_use_written)) {
    std::string unwritten = !reading.num_allocs_written ? "num_allocs" : "";
    if (!reading.bytes_in_use_written)
      unwritten += std::string(unwritten.empty() ? "" : " and ") + "bytes_in_use";
    session_.findings().Record(FindingKind::kOutParamNotWritten, callback,
                               "get_allocator_stats returned true without writing " + unwritten);
  }
  reading.has_bytes_reservable_limit =
      stats.has_bytes_reservable_limit != kPoisonBool && stats.has_bytes_reservable_limit != 0;
  return reading;
}

CallResult<MemoryUsageReading> Device::MemoryUsage() {
  const std::string callback = StreamExecutorCallback("device_memory_usage");
  if (se().device_memory_usage == nullptr) return session_.MissingCallback("device_memory_usage");
  std::int64_t free = kPoisonI64, total = kPoisonI64;
  const TF_Bool ok = PlainCall(session_, callback).Run([&] {
    return se().device_memory_usage(&device_, &free, &total);
  });
  MemoryUsageReading reading;
  reading.returned_true = ok != 0;
  reading.free_written = free != kPoisonI64;
  reading.total_written = total != kPoisonI64;
  reading.free = reading.free_written ? free : 0;
  reading.total = reading.total_written ? total : 0;
  if (reading.returned_true && (!reading.free_written || !reading.total_written)) {
    session_.findings().Record(
        FindingKind::kOutParamNotWritten, callback,
        "device_memory_usage returned true without writing *free and *total");
  }
  return reading;
}

}  // namespace conformance::runtime
