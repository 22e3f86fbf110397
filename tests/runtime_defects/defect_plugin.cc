// The reference plugin with exactly one deliberate defect, chosen at build time: every variant
// links this file's one object (every defect, each in a namespace of its own) and a generated
// source of its own that names its defect (runtime_defect_name, CMakeLists.txt), instead of
// compiling this file once per variant. Used by runtime_defects_test to prove that each C++
// runtime check catches its defect and that no other check does.
//
// How: SE_InitPlugin loads the real reference plugin (dlopen of its built path), lets it
// register, and then swaps ONE callback of its tables for a broken wrapper around the real
// one. The reference plugin itself stays untouched and correct.
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef REFERENCE_PLUGIN_PATH
#error "REFERENCE_PLUGIN_PATH must name libreference_plugin.so"
#endif

// The variant's defect, as its entry of CMakeLists.txt names it (lower case).
extern "C" const char runtime_defect_name[];

namespace {

SP_PlatformFns g_platform_fns;  // the reference's, as registered
SP_StreamExecutor g_real;       // the reference's table, before the defect

// ---- Helpers shared by several defects ------------------------------------------------------

// A per-device stream of the plugin's own, for work a defect defers ("returns before it is
// done"). Deferred work is drained before any deallocation and before the device goes away,
// so the defect is wrong only in the way it means to be.
std::mutex g_private_mutex;
std::map<const SP_Device*, SP_Stream> g_private_streams;

SP_Stream PrivateStream(const SP_Device* device) {
  std::lock_guard lock(g_private_mutex);
  auto found = g_private_streams.find(device);
  if (found != g_private_streams.end()) return found->second;
  TF_Status* status = TF_NewStatus();
  SP_Stream stream = nullptr;
  g_real.create_stream(device, &stream, status);
  TF_DeleteStatus(status);
  g_private_streams[device] = stream;
  return stream;
}

// Deferred work waits behind a gate on the private stream, not behind a timer: it is released
// only when the harness synchronizes the device, frees memory or destroys the device, so "the
// call returned before the work was done" holds however slowly the machine runs.
std::mutex g_gate_mutex;
std::condition_variable g_gate_opened;
uint64_t g_gate_generation = 0;  // how often the gates were opened

void WaitForGate(void* arg, TF_Status* /*status*/) {
  const auto target = static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(arg));
  std::unique_lock lock(g_gate_mutex);
  g_gate_opened.wait(lock, [target] { return g_gate_generation >= target; });
}

void OpenGates() {
  std::lock_guard lock(g_gate_mutex);
  ++g_gate_generation;
  g_gate_opened.notify_all();
}

// The device's private stream with a closed gate queued: whatever is queued next is late.
SP_Stream GatedStream(const SP_Device* device) {
  SP_Stream stream = PrivateStream(device);
  uint64_t target = 0;
  {
    std::lock_guard lock(g_gate_mutex);
    target = g_gate_generation + 1;
  }
  g_real.host_callback(device, stream, WaitForGate,
                       // NOLINTNEXTLINE(performance-no-int-to-ptr): the generation rides in arg
                       reinterpret_cast<void*>(static_cast<std::uintptr_t>(target)));
  return stream;
}

void DrainPrivateStreams(const SP_Device* device) {
  OpenGates();
  std::lock_guard lock(g_private_mutex);
  auto found = g_private_streams.find(device);
  if (found == g_private_streams.end()) return;
  TF_Status* status = TF_NewStatus();
  g_real.block_host_until_done(device, found->second, status);
  TF_DeleteStatus(status);
}

// synchronize_all_activity releases deferred work first (it waits for the private stream too).
void SynchronizeOpeningGates(const SP_Device* device, TF_Status* status) {
  OpenGates();
  g_real.synchronize_all_activity(device, status);
}

void FreeBytes(void* arg, TF_Status* /*status*/) { delete static_cast<std::vector<char>*>(arg); }

void SetOk(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

// ---- The defects ----------------------------------------------------------------------------

namespace alloc_zero_unwritten {
// allocate(0) returns without touching the struct.
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  if (size == 0) return;
  g_real.allocate(device, size, space, mem);
}
void Install(SP_StreamExecutor& se) { se.allocate = Allocate; }
}  // namespace alloc_zero_unwritten

namespace alloc_odd_fails {
// Odd sizes cannot be allocated.
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  if (size % 2 == 1) {
    *mem = SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
    return;
  }
  g_real.allocate(device, size, space, mem);
}
void Install(SP_StreamExecutor& se) { se.allocate = Allocate; }
}  // namespace alloc_odd_fails

namespace alloc_misaligned {
// Allocations start 16 bytes into a larger block: usable, but only 16-byte aligned.
std::mutex g_mutex;
std::set<void*> g_shifted;
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  g_real.allocate(device, size + 64, space, mem);
  if (mem->opaque == nullptr) return;
  mem->opaque = static_cast<char*>(mem->opaque) + 16;
  mem->size = size;
  std::lock_guard lock(g_mutex);
  g_shifted.insert(mem->opaque);
}
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  SP_DeviceMemoryBase real = *memory;
  {
    std::lock_guard lock(g_mutex);
    if (g_shifted.erase(memory->opaque) > 0) real.opaque = static_cast<char*>(memory->opaque) - 16;
  }
  g_real.deallocate(device, &real);
}
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.deallocate = Deallocate;
}
}  // namespace alloc_misaligned

namespace host_alloc_misaligned {
// Host memory starts 16 bytes into a larger block: usable, but only 16-byte aligned.
void* HostMemoryAllocate(const SP_Device* device, uint64_t size) {
  char* block = static_cast<char*>(g_real.host_memory_allocate(device, size + 64));
  return block == nullptr ? nullptr : block + 16;
}
void HostMemoryDeallocate(const SP_Device* device, void* memory) {
  g_real.host_memory_deallocate(device,
                                memory == nullptr ? nullptr : static_cast<char*>(memory) - 16);
}
void Install(SP_StreamExecutor& se) {
  se.host_memory_allocate = HostMemoryAllocate;
  se.host_memory_deallocate = HostMemoryDeallocate;
}
}  // namespace host_alloc_misaligned

namespace host_alloc_small {
// Host memory is 64 bytes whatever the size asked for (a pool handing out its smallest class).
void* HostMemoryAllocate(const SP_Device* device, uint64_t) {
  return g_real.host_memory_allocate(device, 64);
}
void Install(SP_StreamExecutor& se) { se.host_memory_allocate = HostMemoryAllocate; }
}  // namespace host_alloc_small

namespace alloc_huge_succeeds {
// Impossible sizes "succeed" with a bogus address.
char* const kBogus = reinterpret_cast<char*>(0x10000);
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  if (size > (uint64_t{1} << 40)) {
    *mem = SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, kBogus, size, 0};
    return;
  }
  g_real.allocate(device, size, space, mem);
}
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  if (memory->opaque != kBogus) g_real.deallocate(device, memory);
}
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.deallocate = Deallocate;
}
}  // namespace alloc_huge_succeeds

namespace alloc_size_truncated {
// Vulten's defect: the size goes through a uint32_t, so a request beyond 4 GiB gets a small
// buffer (here at least 4 KiB) that reports the size asked for.
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  if (size <= UINT32_MAX) return g_real.allocate(device, size, space, mem);
  const uint64_t truncated = static_cast<uint32_t>(size);
  g_real.allocate(device, truncated < 4096 ? 4096 : truncated, space, mem);
  mem->size = size;
}
void Install(SP_StreamExecutor& se) { se.allocate = Allocate; }
}  // namespace alloc_size_truncated

namespace alloc_overcommit_usable {  // not a defect: must pass
// Legal: device_memory_usage reports a total of 512 MiB (a host device reporting what it can
// count on; the reference device has 1 GiB), yet allocate hands out more, and that memory works
// to its last byte, as malloc on an overcommitting kernel does for the tutorial sample.
constexpr int64_t kReported = int64_t{512} << 20;
TF_Bool DeviceMemoryUsage(const SP_Device* device, int64_t* free, int64_t* total) {
  int64_t real_free = 0, real_total = 0;
  if (!g_real.device_memory_usage(device, &real_free, &real_total)) return 0;
  const int64_t used = real_total - real_free;
  *total = kReported;
  *free = used < kReported ? kReported - used : 0;
  return 1;
}
void Install(SP_StreamExecutor& se) { se.device_memory_usage = DeviceMemoryUsage; }
}  // namespace alloc_overcommit_usable

namespace dealloc_null_crash {
// deallocate dereferences a NULL opaque.
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  if (memory->opaque == nullptr) std::abort();
  g_real.deallocate(device, memory);
}
void Install(SP_StreamExecutor& se) { se.deallocate = Deallocate; }
}  // namespace dealloc_null_crash

namespace memcpy_htod_shifted {
// The asynchronous memcpy_htod lands its data one byte past the destination's start (the last
// byte is dropped, so nothing is written outside the buffer). Its timing is right: only
// runtime.memcpy.exact_bytes may blame it, and nothing may call it late.
void MemcpyHtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* dst,
                const void* src, uint64_t size, TF_Status* status) {
  if (size < 2) return g_real.memcpy_htod(device, stream, dst, src, size, status);
  SP_DeviceMemoryBase shifted = *dst;
  shifted.opaque = static_cast<char*>(dst->opaque) + 1;
  shifted.size = dst->size > 0 ? dst->size - 1 : 0;
  g_real.memcpy_htod(device, stream, &shifted, src, size - 1, status);
}
void Install(SP_StreamExecutor& se) { se.memcpy_htod = MemcpyHtoD; }
}  // namespace memcpy_htod_shifted

namespace sync_htod_late {
// sync_memcpy_htod queues the copy (of a snapshot) and returns before it is done.
void SyncHtoD(const SP_Device* device, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
              TF_Status* status) {
  SP_Stream stream = GatedStream(device);
  auto* snapshot =
      new std::vector<char>(static_cast<const char*>(src), static_cast<const char*>(src) + size);
  g_real.memcpy_htod(device, stream, dst, snapshot->data(), size, status);
  g_real.host_callback(device, stream, FreeBytes, snapshot);
}
void Install(SP_StreamExecutor& se) {
  se.sync_memcpy_htod = SyncHtoD;
  se.synchronize_all_activity = SynchronizeOpeningGates;
}
}  // namespace sync_htod_late

namespace sync_dtoh_late {
// sync_memcpy_dtoh queues the copy and returns before it is done.
void SyncDtoH(const SP_Device* device, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
              TF_Status* status) {
  g_real.memcpy_dtoh(device, GatedStream(device), dst, src, size, status);
}
void Install(SP_StreamExecutor& se) {
  se.sync_memcpy_dtoh = SyncDtoH;
  se.synchronize_all_activity = SynchronizeOpeningGates;
}
}  // namespace sync_dtoh_late

namespace sync_dtod_late {
// sync_memcpy_dtod queues the copy and returns before it is done.
void SyncDtoD(const SP_Device* device, SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
              uint64_t size, TF_Status* status) {
  g_real.memcpy_dtod(device, GatedStream(device), dst, src, size, status);
}
void Install(SP_StreamExecutor& se) {
  se.sync_memcpy_dtod = SyncDtoD;
  se.synchronize_all_activity = SynchronizeOpeningGates;
}
}  // namespace sync_dtod_late

namespace block_host_until_done_early {
// block_host_until_done does not wait.
void BlockHostUntilDone(const SP_Device*, SP_Stream, TF_Status* status) { SetOk(status); }
void Install(SP_StreamExecutor& se) { se.block_host_until_done = BlockHostUntilDone; }
}  // namespace block_host_until_done_early

namespace synchronize_all_early {
// synchronize_all_activity does not wait.
void SynchronizeAllActivity(const SP_Device*, TF_Status* status) { SetOk(status); }
void Install(SP_StreamExecutor& se) { se.synchronize_all_activity = SynchronizeAllActivity; }
}  // namespace synchronize_all_early

namespace callback_twice {
// Every host callback is queued twice.
TF_Bool HostCallback(const SP_Device* device, SP_Stream stream, SE_StatusCallbackFn fn, void* arg) {
  return g_real.host_callback(device, stream, fn, arg) &&
         g_real.host_callback(device, stream, fn, arg);
}
void Install(SP_StreamExecutor& se) { se.host_callback = HostCallback; }
}  // namespace callback_twice

namespace callback_never_runs {
// host_callback accepts every callback and never calls it (TensorFlow's test plugin does this).
TF_Bool HostCallback(const SP_Device*, SP_Stream, SE_StatusCallbackFn, void*) { return 1; }
void Install(SP_StreamExecutor& se) { se.host_callback = HostCallback; }
}  // namespace callback_never_runs

namespace event_status_unknown {
// get_event_status never leaves SE_EVENT_UNKNOWN, which TensorFlow's event manager treats as
// fatal (aluminum_shark does this).
SE_EventStatus GetEventStatus(const SP_Device*, SP_Event) { return SE_EVENT_UNKNOWN; }
void Install(SP_StreamExecutor& se) { se.get_event_status = GetEventStatus; }
}  // namespace event_status_unknown

namespace event_always_complete {
// get_event_status answers COMPLETE for every event, recorded or not, whatever is still queued
// before it (Vulten's stub); record_event and the waits are the reference's and work.
SE_EventStatus GetEventStatus(const SP_Device*, SP_Event) { return SE_EVENT_COMPLETE; }
void Install(SP_StreamExecutor& se) { se.get_event_status = GetEventStatus; }
}  // namespace event_always_complete

namespace record_event_immediate {
// record_event marks the event on an idle stream of the plugin's own, so it completes at once
// whatever the recording stream still has queued.
void RecordEvent(const SP_Device* device, SP_Stream, SP_Event event, TF_Status* status) {
  g_real.record_event(device, PrivateStream(device), event, status);
}
void Install(SP_StreamExecutor& se) { se.record_event = RecordEvent; }
}  // namespace record_event_immediate

namespace memcpy_htod_short {
// The asynchronous memcpy_htod copies one byte less than asked (the last byte keeps what it had).
void MemcpyHtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* dst,
                const void* src, uint64_t size, TF_Status* status) {
  g_real.memcpy_htod(device, stream, dst, src, size > 1 ? size - 1 : size, status);
}
void Install(SP_StreamExecutor& se) { se.memcpy_htod = MemcpyHtoD; }
}  // namespace memcpy_htod_short

namespace memcpy_dtoh_offset {
// The asynchronous memcpy_dtoh reads from one byte past the source's start (the host's last
// byte is left alone, so nothing is read outside the buffer).
void MemcpyDtoH(const SP_Device* device, SP_Stream stream, void* dst,
                const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
  if (size < 2) return g_real.memcpy_dtoh(device, stream, dst, src, size, status);
  SP_DeviceMemoryBase shifted = *src;
  shifted.opaque = static_cast<char*>(src->opaque) + 1;
  shifted.size = src->size > 0 ? src->size - 1 : 0;
  g_real.memcpy_dtoh(device, stream, dst, &shifted, size - 1, status);
}
void Install(SP_StreamExecutor& se) { se.memcpy_dtoh = MemcpyDtoH; }
}  // namespace memcpy_dtoh_offset

namespace memcpy_htod_ignores_offset {
// The asynchronous memcpy_htod writes to the start of the allocation its destination lies in,
// whatever the offset: right for a whole tensor at its allocation's base, wrong for every
// interior address TensorFlow passes (BFC sub-allocations, sliced tensors). The plugin knows
// its allocations, as a driver that looks buffers up by address does.
std::mutex g_blocks_mutex;
std::map<const char*, uint64_t> g_blocks;  // start -> size
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  g_real.allocate(device, size, space, mem);
  if (mem->opaque == nullptr) return;
  std::lock_guard lock(g_blocks_mutex);
  g_blocks[static_cast<const char*>(mem->opaque)] = size;
}
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
  {
    std::lock_guard lock(g_blocks_mutex);
    g_blocks.erase(static_cast<const char*>(mem->opaque));
  }
  g_real.deallocate(device, mem);
}
void MemcpyHtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* dst,
                const void* src, uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase base = *dst;
  {
    std::lock_guard lock(g_blocks_mutex);
    auto block = g_blocks.upper_bound(static_cast<const char*>(dst->opaque));
    if (block != g_blocks.begin()) base.opaque = const_cast<char*>(std::prev(block)->first);
  }
  g_real.memcpy_htod(device, stream, &base, src, size, status);
}
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.deallocate = Deallocate;
  se.memcpy_htod = MemcpyHtoD;
}
}  // namespace memcpy_htod_ignores_offset

namespace off_tensorflow_paths_exit {
// Every call TensorFlow's recorded workload never makes (docs/tensorflow/calls.md;
// runtime/tensorflow_calls.h's kCallsPrerequisitesUse) ends the process, the way Vulten's
// synchronous copies call exit(1): host_callback, block_host_until_done, block_host_for_event,
// wait_for_event, get_stream_status, the fills and the synchronous copies; so does allocate(0),
// which TensorFlow's allocator never asks for. Everything else is the reference plugin's: only
// the checks that probe these calls may report them.
[[noreturn]] void Die() { std::exit(1); }
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  if (size == 0) Die();
  g_real.allocate(device, size, space, mem);
}
void SyncHtoD(const SP_Device*, SP_DeviceMemoryBase*, const void*, uint64_t, TF_Status*) { Die(); }
void SyncDtoH(const SP_Device*, void*, const SP_DeviceMemoryBase*, uint64_t, TF_Status*) { Die(); }
void SyncDtoD(const SP_Device*, SP_DeviceMemoryBase*, const SP_DeviceMemoryBase*, uint64_t,
              TF_Status*) {
  Die();
}
void BlockHostUntilDone(const SP_Device*, SP_Stream, TF_Status*) { Die(); }
void BlockHostForEvent(const SP_Device*, SP_Event, TF_Status*) { Die(); }
void WaitForEvent(const SP_Device* const, SP_Stream, SP_Event, TF_Status* const) { Die(); }
void GetStreamStatus(const SP_Device*, SP_Stream, TF_Status*) { Die(); }
void MemZero(const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint64_t, TF_Status*) { Die(); }
void Memset(const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint8_t, uint64_t, TF_Status*) {
  Die();
}
void Memset32(const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint32_t, uint64_t, TF_Status*) {
  Die();
}
TF_Bool HostCallback(const SP_Device*, SP_Stream, SE_StatusCallbackFn, void*) { Die(); }
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.block_host_until_done = BlockHostUntilDone;
  se.block_host_for_event = BlockHostForEvent;
  se.wait_for_event = WaitForEvent;
  se.get_stream_status = GetStreamStatus;
  se.mem_zero = MemZero;
  se.memset = Memset;
  se.memset32 = Memset32;
  se.host_callback = HostCallback;
  se.sync_memcpy_htod = SyncHtoD;
  se.sync_memcpy_dtoh = SyncDtoH;
  se.sync_memcpy_dtod = SyncDtoD;
}
}  // namespace off_tensorflow_paths_exit

namespace callback_early_when_busy {
// A host callback arriving while the stream is busy runs at once, on the caller's thread.
bool Busy(const SP_Device* device, SP_Stream stream) {
  TF_Status* status = TF_NewStatus();
  SP_Event event = nullptr;
  g_real.create_event(device, &event, status);
  g_real.record_event(device, stream, event, status);
  bool busy = true;
  for (int i = 0; i < 10 && busy; ++i) {  // an idle stream passes the record within microseconds
    busy = g_real.get_event_status(device, event) != SE_EVENT_COMPLETE;
    if (busy) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  g_real.destroy_event(device, event);  // no waiting here: that would make the stream idle
  TF_DeleteStatus(status);
  return busy;
}
TF_Bool HostCallback(const SP_Device* device, SP_Stream stream, SE_StatusCallbackFn fn, void* arg) {
  if (!Busy(device, stream)) return g_real.host_callback(device, stream, fn, arg);
  TF_Status* status = TF_NewStatus();
  fn(arg, status);
  TF_DeleteStatus(status);
  return 1;
}
void Install(SP_StreamExecutor& se) { se.host_callback = HostCallback; }
}  // namespace callback_early_when_busy

namespace callback_error_dropped {
// A host callback's error status is thrown away instead of failing the stream.
struct Forward {
  SE_StatusCallbackFn fn;
  void* arg;
};
void RunAndDrop(void* context, TF_Status* /*stream_status*/) {
  auto* forward = static_cast<Forward*>(context);
  TF_Status* scratch = TF_NewStatus();
  forward->fn(forward->arg, scratch);
  TF_DeleteStatus(scratch);
  delete forward;
}
TF_Bool HostCallback(const SP_Device* device, SP_Stream stream, SE_StatusCallbackFn fn, void* arg) {
  return g_real.host_callback(device, stream, RunAndDrop, new Forward{fn, arg});
}
void Install(SP_StreamExecutor& se) { se.host_callback = HostCallback; }
}  // namespace callback_error_dropped

namespace event_stuck_pending {
// get_event_status never reports COMPLETE.
SE_EventStatus GetEventStatus(const SP_Device* device, SP_Event event) {
  const SE_EventStatus status = g_real.get_event_status(device, event);
  return status == SE_EVENT_COMPLETE ? SE_EVENT_PENDING : status;
}
void Install(SP_StreamExecutor& se) { se.get_event_status = GetEventStatus; }
}  // namespace event_stuck_pending

namespace block_host_for_event_early {
// block_host_for_event does not wait.
void BlockHostForEvent(const SP_Device*, SP_Event, TF_Status* status) { SetOk(status); }
void Install(SP_StreamExecutor& se) { se.block_host_for_event = BlockHostForEvent; }
}  // namespace block_host_for_event_early

namespace wait_for_event_noop {
// wait_for_event does not make the stream wait.
void WaitForEvent(const SP_Device* const, SP_Stream, SP_Event, TF_Status* const status) {
  SetOk(status);
}
void Install(SP_StreamExecutor& se) { se.wait_for_event = WaitForEvent; }
}  // namespace wait_for_event_noop

namespace stream_dependency_noop {
// create_stream_dependency does not make the stream wait.
void CreateStreamDependency(const SP_Device*, SP_Stream, SP_Stream, TF_Status* status) {
  SetOk(status);
}
void Install(SP_StreamExecutor& se) { se.create_stream_dependency = CreateStreamDependency; }
}  // namespace stream_dependency_noop

namespace stream_limit {
// No more than 64 live streams.
std::atomic<int> g_live{0};
void CreateStream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  if (g_live.fetch_add(1) >= 64) {
    g_live.fetch_sub(1);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "defect plugin: at most 64 streams");
    return;
  }
  g_real.create_stream(device, stream, status);
  if (TF_GetCode(status) != TF_OK) g_live.fetch_sub(1);
}
void DestroyStream(const SP_Device* device, SP_Stream stream) {
  g_real.destroy_stream(device, stream);
  g_live.fetch_sub(1);
}
void Install(SP_StreamExecutor& se) {
  se.create_stream = CreateStream;
  se.destroy_stream = DestroyStream;
}
}  // namespace stream_limit

namespace cross_device_dependency_refused {
// create_stream_dependency refuses a stream of another device of the plugin, as the project's
// mock plugin once did: TensorFlow passes one for every copy between two of its devices.
std::mutex g_mutex;
std::map<SP_Stream, int> g_ordinal_of;  // live stream -> the device that created it
void CreateStream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  g_real.create_stream(device, stream, status);
  if (TF_GetCode(status) != TF_OK) return;
  std::lock_guard lock(g_mutex);
  g_ordinal_of[*stream] = device->ordinal;
}
void DestroyStream(const SP_Device* device, SP_Stream stream) {
  {
    std::lock_guard lock(g_mutex);
    g_ordinal_of.erase(stream);
  }
  g_real.destroy_stream(device, stream);
}
void CreateStreamDependency(const SP_Device* device, SP_Stream dependent, SP_Stream other,
                            TF_Status* status) {
  {
    std::lock_guard lock(g_mutex);
    auto found = g_ordinal_of.find(other);
    if (found != g_ordinal_of.end() && found->second != device->ordinal) {
      TF_SetStatus(status, TF_INVALID_ARGUMENT,
                   "create_stream_dependency: the stream was not created on this device");
      return;
    }
  }
  g_real.create_stream_dependency(device, dependent, other, status);
}
void Install(SP_StreamExecutor& se) {
  se.create_stream = CreateStream;
  se.destroy_stream = DestroyStream;
  se.create_stream_dependency = CreateStreamDependency;
}
}  // namespace cross_device_dependency_refused

namespace stats_stuck {
// bytes_in_use is frozen at its first reported value.
std::atomic<int64_t> g_first{-1};
TF_Bool GetAllocatorStats(const SP_Device* device, SP_AllocatorStats* stats) {
  const TF_Bool ok = g_real.get_allocator_stats(device, stats);
  int64_t expected = -1;
  g_first.compare_exchange_strong(expected, stats->bytes_in_use);
  stats->bytes_in_use = g_first.load();
  return ok;
}
void Install(SP_StreamExecutor& se) { se.get_allocator_stats = GetAllocatorStats; }
}  // namespace stats_stuck

namespace stats_constant {
// bytes_in_use is always the device's whole memory, whatever is allocated (a pool allocator
// reporting its reservation). device_memory_usage stays right.
TF_Bool GetAllocatorStats(const SP_Device* device, SP_AllocatorStats* stats) {
  const TF_Bool ok = g_real.get_allocator_stats(device, stats);
  int64_t free = 0, total = 0;
  g_real.device_memory_usage(device, &free, &total);
  stats->bytes_in_use = total;
  if (stats->peak_bytes_in_use < total) stats->peak_bytes_in_use = total;
  return ok;
}
void Install(SP_StreamExecutor& se) { se.get_allocator_stats = GetAllocatorStats; }
}  // namespace stats_constant

namespace devices_aliased {
// Device 1 hands out device 0's live allocations of the same size.
std::mutex g_mutex;
std::multimap<uint64_t, void*> g_device0;  // size -> live device-0 allocations
std::set<void*> g_aliases;
void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  {
    std::lock_guard lock(g_mutex);
    auto found = g_device0.find(size);
    if (device->ordinal == 1 && found != g_device0.end()) {
      *mem =
          SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, found->second, size, 0};
      g_aliases.insert(found->second);
      return;
    }
  }
  g_real.allocate(device, size, space, mem);
  std::lock_guard lock(g_mutex);
  if (device->ordinal == 0 && mem->opaque != nullptr) g_device0.emplace(size, mem->opaque);
}
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  {
    std::lock_guard lock(g_mutex);
    if (device->ordinal == 1 && g_aliases.erase(memory->opaque) > 0) return;
    for (auto it = g_device0.begin(); it != g_device0.end(); ++it) {
      if (it->second == memory->opaque) {
        g_device0.erase(it);
        break;
      }
    }
  }
  g_real.deallocate(device, memory);
}
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.deallocate = Deallocate;
}
}  // namespace devices_aliased

namespace opaque_is_object {
// Vulten's pattern: opaque points to a small host object of the plugin's own that holds the
// real device buffer, so opaque + offset (what TensorFlow passes for a sliced tensor) is no
// buffer at all. The objects sit in one pool, close together like heap objects, so the
// [opaque, opaque + size) ranges of live buffers overlap; an address that is no object's
// start ends the process with SIGSEGV (a real plugin reads garbage through it), deterministically.
struct alignas(64) Holder {
  SP_DeviceMemoryBase real;
  bool live;
};
// 64-byte aligned, and no copy offset the checks use is a multiple of it.
constexpr std::size_t kStride = std::size_t{64} * 67;
constexpr std::size_t kSlots = 1024;
alignas(64) unsigned char g_pool[kSlots * kStride];
std::mutex g_pool_mutex;

Holder* Slot(std::size_t i) { return reinterpret_cast<Holder*>(g_pool + i * kStride); }

Holder* HolderAt(const void* opaque) {
  const auto* p = static_cast<const unsigned char*>(opaque);
  if (p >= g_pool && p < g_pool + sizeof(g_pool) &&
      static_cast<std::size_t>(p - g_pool) % kStride == 0) {
    std::lock_guard lock(g_pool_mutex);
    Holder* holder = Slot(static_cast<std::size_t>(p - g_pool) / kStride);
    if (holder->live) return holder;
  }
  std::raise(SIGSEGV);  // what dereferencing a stranger's bytes as a Holder comes to
  return nullptr;
}

// Unified memory is the reference plugin's own (a real address, offsets included): start, size.
std::map<const unsigned char*, uint64_t> g_unified;

bool IsUnified(const void* address) {
  const auto* p = static_cast<const unsigned char*>(address);
  std::lock_guard lock(g_pool_mutex);
  auto after = g_unified.upper_bound(p);
  if (after == g_unified.begin()) return false;
  --after;
  return p < after->first + after->second;
}

// The plugin's view of a device range: its object's real buffer (NULL stays NULL).
SP_DeviceMemoryBase Real(const SP_DeviceMemoryBase* mem) {
  if (mem->opaque == nullptr || IsUnified(mem->opaque)) return *mem;
  return HolderAt(mem->opaque)->real;
}

void* UnifiedAllocate(const SP_Device* device, uint64_t bytes) {
  void* p = g_real.unified_memory_allocate(device, bytes);
  std::lock_guard lock(g_pool_mutex);
  if (p != nullptr) g_unified[static_cast<const unsigned char*>(p)] = bytes;
  return p;
}
void UnifiedDeallocate(const SP_Device* device, void* location) {
  {
    std::lock_guard lock(g_pool_mutex);
    g_unified.erase(static_cast<const unsigned char*>(location));
  }
  g_real.unified_memory_deallocate(device, location);
}

void Allocate(const SP_Device* device, uint64_t size, int64_t space, SP_DeviceMemoryBase* mem) {
  SP_DeviceMemoryBase real{};
  real.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  g_real.allocate(device, size, space, &real);
  *mem = real;
  if (real.opaque == nullptr) return;
  std::lock_guard lock(g_pool_mutex);
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (Slot(i)->live) continue;
    *Slot(i) = Holder{real, true};
    mem->opaque = Slot(i);
    return;
  }
  g_real.deallocate(device, &real);  // pool exhausted: a refusal
  mem->opaque = nullptr;
}
void Deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
  if (mem->opaque == nullptr) return;
  SP_DeviceMemoryBase real = Real(mem);
  {
    std::lock_guard lock(g_pool_mutex);
    static_cast<Holder*>(mem->opaque)->live = false;
  }
  g_real.deallocate(device, &real);
}
void MemcpyHtoD(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* dst, const void* src,
                uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase real = Real(dst);
  g_real.memcpy_htod(d, s, &real, src, size, status);
}
void MemcpyDtoH(const SP_Device* d, SP_Stream s, void* dst, const SP_DeviceMemoryBase* src,
                uint64_t size, TF_Status* status) {
  const SP_DeviceMemoryBase real = Real(src);
  g_real.memcpy_dtoh(d, s, dst, &real, size, status);
}
void MemcpyDtoD(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* dst,
                const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase real_dst = Real(dst);
  const SP_DeviceMemoryBase real_src = Real(src);
  g_real.memcpy_dtod(d, s, &real_dst, &real_src, size, status);
}
void SyncMemcpyHtoD(const SP_Device* d, SP_DeviceMemoryBase* dst, const void* src, uint64_t size,
                    TF_Status* status) {
  SP_DeviceMemoryBase real = Real(dst);
  g_real.sync_memcpy_htod(d, &real, src, size, status);
}
void SyncMemcpyDtoH(const SP_Device* d, void* dst, const SP_DeviceMemoryBase* src, uint64_t size,
                    TF_Status* status) {
  const SP_DeviceMemoryBase real = Real(src);
  g_real.sync_memcpy_dtoh(d, dst, &real, size, status);
}
void SyncMemcpyDtoD(const SP_Device* d, SP_DeviceMemoryBase* dst, const SP_DeviceMemoryBase* src,
                    uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase real_dst = Real(dst);
  const SP_DeviceMemoryBase real_src = Real(src);
  g_real.sync_memcpy_dtod(d, &real_dst, &real_src, size, status);
}
void MemZero(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* location, uint64_t size,
             TF_Status* status) {
  SP_DeviceMemoryBase real = Real(location);
  g_real.mem_zero(d, s, &real, size, status);
}
void Memset(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* location, uint8_t pattern,
            uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase real = Real(location);
  g_real.memset(d, s, &real, pattern, size, status);
}
void Memset32(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* location, uint32_t pattern,
              uint64_t size, TF_Status* status) {
  SP_DeviceMemoryBase real = Real(location);
  g_real.memset32(d, s, &real, pattern, size, status);
}
void Install(SP_StreamExecutor& se) {
  se.allocate = Allocate;
  se.deallocate = Deallocate;
  se.memcpy_htod = MemcpyHtoD;
  se.memcpy_dtoh = MemcpyDtoH;
  se.memcpy_dtod = MemcpyDtoD;
  se.sync_memcpy_htod = SyncMemcpyHtoD;
  se.sync_memcpy_dtoh = SyncMemcpyDtoH;
  se.sync_memcpy_dtod = SyncMemcpyDtoD;
  se.mem_zero = MemZero;
  se.memset = Memset;
  se.memset32 = Memset32;
  if (se.unified_memory_allocate != nullptr) {
    se.unified_memory_allocate = UnifiedAllocate;
    se.unified_memory_deallocate = UnifiedDeallocate;
  }
}
}  // namespace opaque_is_object

// Every variant holds every defect; the one its generated source names is installed.
struct Defect {
  const char* name;
  void (*install)(SP_StreamExecutor&);
};
const Defect kDefects[] = {
    {"alloc_zero_unwritten", alloc_zero_unwritten::Install},
    {"alloc_odd_fails", alloc_odd_fails::Install},
    {"alloc_misaligned", alloc_misaligned::Install},
    {"host_alloc_misaligned", host_alloc_misaligned::Install},
    {"host_alloc_small", host_alloc_small::Install},
    {"alloc_huge_succeeds", alloc_huge_succeeds::Install},
    {"alloc_size_truncated", alloc_size_truncated::Install},
    {"alloc_overcommit_usable", alloc_overcommit_usable::Install},
    {"dealloc_null_crash", dealloc_null_crash::Install},
    {"memcpy_htod_shifted", memcpy_htod_shifted::Install},
    {"sync_htod_late", sync_htod_late::Install},
    {"sync_dtoh_late", sync_dtoh_late::Install},
    {"sync_dtod_late", sync_dtod_late::Install},
    {"block_host_until_done_early", block_host_until_done_early::Install},
    {"synchronize_all_early", synchronize_all_early::Install},
    {"callback_twice", callback_twice::Install},
    {"callback_never_runs", callback_never_runs::Install},
    {"event_status_unknown", event_status_unknown::Install},
    {"event_always_complete", event_always_complete::Install},
    {"record_event_immediate", record_event_immediate::Install},
    {"memcpy_htod_short", memcpy_htod_short::Install},
    {"memcpy_dtoh_offset", memcpy_dtoh_offset::Install},
    {"memcpy_htod_ignores_offset", memcpy_htod_ignores_offset::Install},
    {"off_tensorflow_paths_exit", off_tensorflow_paths_exit::Install},
    {"callback_early_when_busy", callback_early_when_busy::Install},
    {"callback_error_dropped", callback_error_dropped::Install},
    {"event_stuck_pending", event_stuck_pending::Install},
    {"block_host_for_event_early", block_host_for_event_early::Install},
    {"wait_for_event_noop", wait_for_event_noop::Install},
    {"stream_dependency_noop", stream_dependency_noop::Install},
    {"stream_limit", stream_limit::Install},
    {"cross_device_dependency_refused", cross_device_dependency_refused::Install},
    {"stats_stuck", stats_stuck::Install},
    {"stats_constant", stats_constant::Install},
    {"devices_aliased", devices_aliased::Install},
    {"opaque_is_object", opaque_is_object::Install},
};

const Defect* SelectedDefect() {
  for (const Defect& defect : kDefects) {
    if (std::strcmp(defect.name, runtime_defect_name) == 0) return &defect;
  }
  return nullptr;
}

bool Selected(const char* name) { return std::strcmp(runtime_defect_name, name) == 0; }

// ---- Plumbing ---------------------------------------------------------------------------------

// Deferred work of a defect must never outlive the memory or the device it touches: drain it
// before the (possibly defective) deallocate runs.
decltype(SP_StreamExecutor::deallocate) g_deallocate = nullptr;
void DeallocateDrained(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  DrainPrivateStreams(device);
  g_deallocate(device, memory);
}

void DestroyDevice(const SP_Platform* platform, SP_Device* device) {
  OpenGates();
  {
    std::lock_guard lock(g_private_mutex);
    auto found = g_private_streams.find(device);
    if (found != g_private_streams.end()) {
      g_real.destroy_stream(device, found->second);
      g_private_streams.erase(found);
    }
  }
  g_platform_fns.destroy_device(platform, device);
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_platform_fns.create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_real = *params->stream_executor;
  SelectedDefect()->install(*params->stream_executor);
  g_deallocate = params->stream_executor->deallocate;
  params->stream_executor->deallocate = DeallocateDrained;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (SelectedDefect() == nullptr) {
    TF_SetStatus(status, TF_INTERNAL, "defect plugin: no defect of that name");
    return;
  }
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "defect plugin")) return;
  g_platform_fns = *params->platform_fns;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
  params->platform_fns->destroy_device = DestroyDevice;
}

// The reference plugin's kernels on this device for two defects, so the kernel tier has
// something to judge. For stream_dependency_noop they are what makes the defect a user's:
// TensorFlow orders a copy after the compute stream with create_stream_dependency, and only a
// kernel queues work there (a device without kernels gives a copy nothing to wait for, measured
// on 2.21.0: 34 of 34 copies right in 5 of 5 runs, with the dependency a no-op). The others have
// a kernel module all the same, an empty one: TensorFlow 2.10 refuses a plugin without
// TF_InitKernel (measured on the 2.10.1 wheel), and these defects are also judged under
// --profile tf2.10.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {
  if (!Selected("off_tensorflow_paths_exit") && !Selected("stream_dependency_noop")) return;
  void* reference = dlopen(REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  auto init = reference != nullptr ? reinterpret_cast<void (*)()>(dlsym(reference, "TF_InitKernel"))
                                   : nullptr;
  if (init != nullptr) init();
}
