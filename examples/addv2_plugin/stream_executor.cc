// SP_StreamExecutor of the example device: every callback, each a few lines over device.h.
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "device.h"
#include "plugin.h"

namespace example {
namespace {

Device& Dev(const SP_Device* device) { return *static_cast<Device*>(device->device_handle); }
Stream* S(SP_Stream stream) { return reinterpret_cast<Stream*>(stream); }
Event* E(SP_Event event) { return reinterpret_cast<Event*>(event); }
void Ok(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

struct Timer {
  std::chrono::steady_clock::time_point start, stop;
};

void allocate(const SP_Device* device, uint64_t size, int64_t, SP_DeviceMemoryBase* mem) {
  mem->opaque = Dev(device).Allocate(size);
  mem->size = mem->opaque == nullptr ? 0 : size;
}
void deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
  Dev(device).Deallocate(mem->opaque);
}
void* host_allocate(const SP_Device*, uint64_t size) {
  return std::aligned_alloc(64, (size + 63) / 64 * 64 + 64);
}
void host_deallocate(const SP_Device*, void* mem) { std::free(mem); }
TF_Bool allocator_stats(const SP_Device* device, SP_AllocatorStats* stats) {
  Dev(device).Stats(stats);
  return 1;
}
TF_Bool memory_usage(const SP_Device* device, int64_t* free, int64_t* total) {
  *total = static_cast<int64_t>(Device::kMemoryBytes);
  *free = *total - Dev(device).bytes_in_use();
  return 1;
}

void create_stream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  *stream = reinterpret_cast<SP_Stream>(Dev(device).NewStream());
  Ok(status);
}
void destroy_stream(const SP_Device* device, SP_Stream stream) {
  Dev(device).DeleteStream(S(stream));
}
void create_stream_dependency(const SP_Device*, SP_Stream dependent, SP_Stream other,
                              TF_Status* status) {
  auto* reached = new Event;  // opened when `other` gets this far; freed by the waiter
  reached->Set(SE_EVENT_PENDING);
  S(other)->Enqueue([reached] { reached->Set(SE_EVENT_COMPLETE); });
  S(dependent)->Enqueue([reached] {
    reached->WaitUntilDone();
    delete reached;
  });
  Ok(status);
}
void get_stream_status(const SP_Device*, SP_Stream stream, TF_Status* status) {
  std::string message;
  TF_SetStatus(status, S(stream)->status(&message), message.c_str());
}

void create_event(const SP_Device*, SP_Event* event, TF_Status* status) {
  *event = reinterpret_cast<SP_Event>(new Event);
  Ok(status);
}
void destroy_event(const SP_Device*, SP_Event event) { delete E(event); }
SE_EventStatus get_event_status(const SP_Device*, SP_Event event) {
  std::lock_guard lock(E(event)->mutex);
  return E(event)->status;
}
void record_event(const SP_Device*, SP_Stream stream, SP_Event event, TF_Status* status) {
  E(event)->Set(SE_EVENT_PENDING);
  S(stream)->Enqueue([e = E(event)] { e->Set(SE_EVENT_COMPLETE); });
  Ok(status);
}
void wait_for_event(const SP_Device* const, SP_Stream stream, SP_Event event,
                    TF_Status* const status) {
  S(stream)->Enqueue([e = E(event)] { e->WaitUntilDone(); });
  Ok(status);
}

void create_timer(const SP_Device*, SP_Timer* timer, TF_Status* status) {
  *timer = reinterpret_cast<SP_Timer>(new Timer);
  Ok(status);
}
void destroy_timer(const SP_Device*, SP_Timer timer) { delete reinterpret_cast<Timer*>(timer); }
void start_timer(const SP_Device*, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  S(stream)->Enqueue(
      [t = reinterpret_cast<Timer*>(timer)] { t->start = std::chrono::steady_clock::now(); });
  Ok(status);
}
void stop_timer(const SP_Device*, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  S(stream)->Enqueue(
      [t = reinterpret_cast<Timer*>(timer)] { t->stop = std::chrono::steady_clock::now(); });
  Ok(status);
}

// Device memory is host memory, so every copy is a memcpy: queued, or done now (sync_*).
void memcpy_dtoh(const SP_Device*, SP_Stream stream, void* dst, const SP_DeviceMemoryBase* src,
                 uint64_t size, TF_Status* status) {
  S(stream)->Enqueue([=, from = src->opaque] { std::memcpy(dst, from, size); });
  Ok(status);
}
void memcpy_htod(const SP_Device*, SP_Stream stream, SP_DeviceMemoryBase* dst, const void* src,
                 uint64_t size, TF_Status* status) {
  S(stream)->Enqueue([=, to = dst->opaque] { std::memcpy(to, src, size); });
  Ok(status);
}
void memcpy_dtod(const SP_Device*, SP_Stream stream, SP_DeviceMemoryBase* dst,
                 const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
  S(stream)->Enqueue([=, to = dst->opaque, from = src->opaque] { std::memmove(to, from, size); });
  Ok(status);
}
void sync_dtoh(const SP_Device*, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
               TF_Status* status) {
  std::memcpy(dst, src->opaque, size);
  Ok(status);
}
void sync_htod(const SP_Device*, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
               TF_Status* status) {
  std::memcpy(dst->opaque, src, size);
  Ok(status);
}
void sync_dtod(const SP_Device*, SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
               uint64_t size, TF_Status* status) {
  std::memmove(dst->opaque, src->opaque, size);
  Ok(status);
}

void block_host_for_event(const SP_Device*, SP_Event event, TF_Status* status) {
  E(event)->WaitUntilDone();
  Ok(status);
}
void block_host_until_done(const SP_Device*, SP_Stream stream, TF_Status* status) {
  S(stream)->Wait();
  Ok(status);
}
void synchronize_all_activity(const SP_Device* device, TF_Status* status) {
  Dev(device).WaitAll();
  Ok(status);
}

void fill(SP_Stream stream, SP_DeviceMemoryBase* location, uint32_t pattern, int width,
          uint64_t size) {
  S(stream)->Enqueue([=, to = static_cast<unsigned char*>(location->opaque)] {
    if (width == 1) {
      std::memset(to, static_cast<int>(pattern & 0xFF), size);
      return;
    }
    uint64_t i = 0;
    for (; i + 4 <= size; i += 4) std::memcpy(to + i, &pattern, 4);  // x86-64: little-endian
    for (; i < size; ++i) to[i] = static_cast<unsigned char>(pattern >> (8 * (i % 4)));
  });
}
void mem_zero(const SP_Device*, SP_Stream stream, SP_DeviceMemoryBase* location, uint64_t size,
              TF_Status* status) {
  fill(stream, location, 0, 1, size);
  Ok(status);
}
void memset8(const SP_Device*, SP_Stream stream, SP_DeviceMemoryBase* location, uint8_t pattern,
             uint64_t size, TF_Status* status) {
  fill(stream, location, pattern, 1, size);
  Ok(status);
}
void memset32(const SP_Device*, SP_Stream stream, SP_DeviceMemoryBase* location, uint32_t pattern,
              uint64_t size, TF_Status* status) {
  fill(stream, location, pattern, 4, size);
  Ok(status);
}

TF_Bool host_callback(const SP_Device*, SP_Stream stream, SE_StatusCallbackFn fn, void* arg) {
  S(stream)->Enqueue([fn, arg, s = S(stream)] {
    TF_Status* status = TF_NewStatus();
    fn(arg, status);
    if (TF_GetCode(status) != TF_OK) s->Fail(TF_GetCode(status), TF_Message(status));
    TF_DeleteStatus(status);
  });
  return 1;
}

}  // namespace

void FillStreamExecutor(SP_StreamExecutor* se) {
  *se = SP_StreamExecutor{};
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->allocate = allocate;
  se->deallocate = deallocate;
  se->host_memory_allocate = host_allocate;
  se->host_memory_deallocate = host_deallocate;
  se->get_allocator_stats = allocator_stats;
  se->device_memory_usage = memory_usage;
  se->create_stream = create_stream;
  se->destroy_stream = destroy_stream;
  se->create_stream_dependency = create_stream_dependency;
  se->get_stream_status = get_stream_status;
  se->create_event = create_event;
  se->destroy_event = destroy_event;
  se->get_event_status = get_event_status;
  se->record_event = record_event;
  se->wait_for_event = wait_for_event;
  se->create_timer = create_timer;
  se->destroy_timer = destroy_timer;
  se->start_timer = start_timer;
  se->stop_timer = stop_timer;
  se->memcpy_dtoh = memcpy_dtoh;
  se->memcpy_htod = memcpy_htod;
  se->memcpy_dtod = memcpy_dtod;
  se->sync_memcpy_dtoh = sync_dtoh;
  se->sync_memcpy_htod = sync_htod;
  se->sync_memcpy_dtod = sync_dtod;
  se->block_host_for_event = block_host_for_event;
  se->block_host_until_done = block_host_until_done;
  se->synchronize_all_activity = synchronize_all_activity;
  se->mem_zero = mem_zero;
  se->memset = memset8;
  se->memset32 = memset32;
  se->host_callback = host_callback;
}

}  // namespace example
