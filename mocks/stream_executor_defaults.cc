// The default actions of MockStreamExecutor: a correct device over InMemoryDevice, with the
// fault-injection switches (faults.h) applied. Copies and fills on a stream run in queue order
// on the stream's worker; synchronous copies complete before they return.
#include <cstring>
#include <string>

#include "mocks/stream_executor_mock.h"

namespace conformance::mocks {

// memset for 1-byte patterns; 4-byte patterns a word at a time (the scenarios fill hundreds
// of megabytes, so a byte loop would be slow enough to time out on a busy machine).
void FillPattern(char* to, uint64_t size, uint32_t pattern, int pattern_bytes) {
  if (pattern_bytes == 1) {
    std::memset(to, static_cast<int>(pattern & 0xFF), size);
    return;
  }
  uint64_t i = 0;
  for (; i + 4 <= size; i += 4) std::memcpy(to + i, &pattern, 4);
  for (; i < size; ++i) to[i] = static_cast<char>(pattern >> (8 * (i % 4)));
}

constexpr TF_Bool kFalse = 0;
constexpr TF_Bool kTrue = 1;

bool MockStreamExecutor::ValidRange(const SP_Device* device, const SP_DeviceMemoryBase* memory,
                                    uint64_t size, const char* callback, TF_Status* status) {
  if (memory != nullptr && DeviceOf(device).Contains(memory->opaque, size)) return true;
  const std::string message = std::string(callback) + ": " + std::to_string(size) +
                              " bytes at the given SP_DeviceMemoryBase are not inside one live "
                              "allocation of this device";
  TF_SetStatus(status, TF_INVALID_ARGUMENT, message.c_str());
  return false;
}

WorkQueue* MockStreamExecutor::QueueOf(const SP_Device* device, SP_Stream stream,
                                       const char* callback, TF_Status* status) {
  WorkQueue* queue = DeviceOf(device).Queue(stream);
  if (queue == nullptr && status != nullptr) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT,
                 (std::string(callback) + ": the stream was not created on this device").c_str());
  }
  return queue;
}

WorkQueue* MockStreamExecutor::QueueOfAnyDevice(SP_Stream stream, const char* callback,
                                                TF_Status* status) {
  {
    std::lock_guard lock(mutex_);
    for (auto& [ordinal, device] : devices_) {
      if (WorkQueue* queue = device->Queue(stream)) return queue;
    }
  }
  TF_SetStatus(status, TF_INVALID_ARGUMENT,
               (std::string(callback) + ": the stream was not created on any device of this plugin")
                   .c_str());
  return nullptr;
}

bool MockStreamExecutor::ValidRangeOnAnyDevice(const SP_DeviceMemoryBase* memory, uint64_t size,
                                               const char* callback, TF_Status* status) {
  if (memory != nullptr) {
    std::lock_guard lock(mutex_);
    for (auto& [ordinal, device] : devices_) {
      if (device->Contains(memory->opaque, size)) return true;
    }
  }
  const std::string message = std::string(callback) + ": " + std::to_string(size) +
                              " bytes at the given SP_DeviceMemoryBase are not inside one live "
                              "allocation of any device of this plugin";
  TF_SetStatus(status, TF_INVALID_ARGUMENT, message.c_str());
  return false;
}

void MockStreamExecutor::InstallDefaultActions() {
  ON_CALL(*this, Allocate)
      .WillByDefault([this](const SP_Device* d, uint64_t size, int64_t, SP_DeviceMemoryBase* mem) {
        const bool fail = faults_.NextAllocationFails() || faults_.HasError(Callback::kAllocate);
        if (faults_.Unwritten(OutParam::kAllocateMemory)) return;
        void* opaque = fail || size == 0 ? nullptr : DeviceOf(d).Allocate(size);
        mem->opaque = opaque;
        if (!faults_.Unwritten(OutParam::kAllocateSize)) mem->size = opaque == nullptr ? 0 : size;
      });
  ON_CALL(*this, Deallocate).WillByDefault([this](const SP_Device* d, SP_DeviceMemoryBase* mem) {
    if (mem != nullptr) DeviceOf(d).Deallocate(mem->opaque);
  });
  ON_CALL(*this, HostMemoryAllocate).WillByDefault([](const SP_Device*, uint64_t size) -> void* {
    return std::aligned_alloc(64, (size + 63) / 64 * 64 + 64);
  });
  ON_CALL(*this, HostMemoryDeallocate).WillByDefault([](const SP_Device*, void* p) {
    std::free(p);
  });
  // Unified memory is device memory the host can touch: here, simply device memory.
  ON_CALL(*this, UnifiedMemoryAllocate)
      .WillByDefault([this](const SP_Device* d, uint64_t size) -> void* {
        return DeviceOf(d).Allocate(size);
      });
  ON_CALL(*this, UnifiedMemoryDeallocate).WillByDefault([this](const SP_Device* d, void* p) {
    DeviceOf(d).Deallocate(p);
  });
  ON_CALL(*this, GetAllocatorStats)
      .WillByDefault([this](const SP_Device* d, SP_AllocatorStats* stats) {
        if (faults_.HasError(Callback::kGetAllocatorStats)) return kFalse;
        if (!faults_.Unwritten(OutParam::kAllocatorStats)) DeviceOf(d).FillStats(stats);
        return kTrue;
      });
  ON_CALL(*this, DeviceMemoryUsage)
      .WillByDefault([this](const SP_Device* d, int64_t* free, int64_t* total) {
        if (faults_.HasError(Callback::kDeviceMemoryUsage)) return kFalse;
        InMemoryDevice& device = DeviceOf(d);
        const auto capacity = static_cast<int64_t>(device.capacity());
        if (!faults_.Unwritten(OutParam::kMemoryUsageFree)) {
          *free = capacity - static_cast<int64_t>(device.bytes_in_use());
        }
        if (!faults_.Unwritten(OutParam::kMemoryUsageTotal)) *total = capacity;
        return kTrue;
      });

  ON_CALL(*this, CreateStream)
      .WillByDefault([this](const SP_Device* d, SP_Stream* stream, TF_Status* status) {
        if (faults_.Inject(Callback::kCreateStream, status)) return;
        if (faults_.Unwritten(OutParam::kCreateStream)) return ReportOk(faults_, status);
        *stream = DeviceOf(d).CreateStream();
        if (faults_.NextStreamStalls()) {
          Gate never_opened;
          DeviceOf(d).Queue(*stream)->Enqueue([never_opened] { never_opened.Wait(); });
        }
        ReportOk(faults_, status);
      });
  ON_CALL(*this, DestroyStream).WillByDefault([this](const SP_Device* d, SP_Stream stream) {
    DeviceOf(d).DestroyStream(stream);
  });
  ON_CALL(*this, CreateStreamDependency)
      .WillByDefault(
          [this](const SP_Device* d, SP_Stream dependent, SP_Stream other, TF_Status* status) {
            if (faults_.Inject(Callback::kCreateStreamDependency, status)) return;
            WorkQueue* waiter = QueueOf(d, dependent, "create_stream_dependency", status);
            // `other` may be another device's stream: TensorFlow passes one for every copy
            // between two devices, and a driver lets a stream wait for another device's work.
            WorkQueue* waited = QueueOfAnyDevice(other, "create_stream_dependency", status);
            if (waiter == nullptr || waited == nullptr) return;
            Gate reached;  // opens when `other` gets this far
            waited->Enqueue([reached]() mutable { reached.Open(); });
            waiter->Enqueue([reached] { reached.Wait(); });
            ReportOk(faults_, status);
          });
  ON_CALL(*this, GetStreamStatus)
      .WillByDefault([this](const SP_Device* d, SP_Stream stream, TF_Status* status) {
        if (faults_.Inject(Callback::kGetStreamStatus, status)) return;
        WorkQueue* queue = QueueOf(d, stream, "get_stream_status", status);
        if (queue == nullptr) return;
        std::string message;
        const TF_Code code = queue->error(&message);
        if (code != TF_OK) {
          TF_SetStatus(status, code, message.c_str());
          return;
        }
        ReportOk(faults_, status);
      });

  ON_CALL(*this, CreateEvent)
      .WillByDefault([this](const SP_Device* d, SP_Event* event, TF_Status* status) {
        if (faults_.Inject(Callback::kCreateEvent, status)) return;
        if (!faults_.Unwritten(OutParam::kCreateEvent)) *event = DeviceOf(d).CreateEvent();
        ReportOk(faults_, status);
      });
  ON_CALL(*this, DestroyEvent).WillByDefault([this](const SP_Device* d, SP_Event event) {
    DeviceOf(d).DestroyEvent(event);
  });
  ON_CALL(*this, GetEventStatus).WillByDefault([](const SP_Device*, SP_Event event) {
    MockEvent* e = InMemoryDevice::Event(event);
    std::lock_guard lock(e->mutex);
    return e->status;
  });
  ON_CALL(*this, RecordEvent)
      .WillByDefault(
          [this](const SP_Device* d, SP_Stream stream, SP_Event event, TF_Status* status) {
            if (faults_.Inject(Callback::kRecordEvent, status)) return;
            WorkQueue* queue = QueueOf(d, stream, "record_event", status);
            if (queue == nullptr) return;
            MockEvent* e = InMemoryDevice::Event(event);
            InMemoryDevice::Complete(e, SE_EVENT_PENDING);
            if (!faults_.EventsNeverComplete()) {
              queue->Enqueue([e] { InMemoryDevice::Complete(e, SE_EVENT_COMPLETE); });
            }
            ReportOk(faults_, status);
          });
  ON_CALL(*this, WaitForEvent)
      .WillByDefault(
          [this](const SP_Device* d, SP_Stream stream, SP_Event event, TF_Status* status) {
            if (faults_.Inject(Callback::kWaitForEvent, status)) return;
            WorkQueue* queue = QueueOf(d, stream, "wait_for_event", status);
            if (queue == nullptr) return;
            MockEvent* e = InMemoryDevice::Event(event);
            queue->Enqueue([e] { InMemoryDevice::WaitUntilDone(e); });
            ReportOk(faults_, status);
          });

  ON_CALL(*this, CreateTimer)
      .WillByDefault([this](const SP_Device* d, SP_Timer* timer, TF_Status* status) {
        if (faults_.Inject(Callback::kCreateTimer, status)) return;
        *timer = DeviceOf(d).CreateTimer();
        ReportOk(faults_, status);
      });
  ON_CALL(*this, DestroyTimer).WillByDefault([this](const SP_Device* d, SP_Timer timer) {
    DeviceOf(d).DestroyTimer(timer);
  });
  auto timestamp = [this](Callback which, bool start) {
    return [this, which, start](const SP_Device* d, SP_Stream stream, SP_Timer timer,
                                TF_Status* status) {
      if (faults_.Inject(which, status)) return;
      WorkQueue* queue = QueueOf(d, stream, start ? "start_timer" : "stop_timer", status);
      if (queue == nullptr) return;
      MockTimer* t = InMemoryDevice::Timer(timer);
      queue->Enqueue([t, start] {
        std::lock_guard lock(t->mutex);
        (start ? t->start_ns : t->stop_ns) = NowNanoseconds();
      });
      ReportOk(faults_, status);
    };
  };
  ON_CALL(*this, StartTimer).WillByDefault(timestamp(Callback::kStartTimer, true));
  ON_CALL(*this, StopTimer).WillByDefault(timestamp(Callback::kStopTimer, false));

  ON_CALL(*this, MemcpyDtoH)
      .WillByDefault([this](const SP_Device* d, SP_Stream stream, void* dst,
                            const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kMemcpyDtoH, status)) return;
        WorkQueue* queue = QueueOf(d, stream, "memcpy_dtoh", status);
        if (queue == nullptr || !ValidRange(d, src, size, "memcpy_dtoh", status)) return;
        const void* from = src->opaque;
        queue->Enqueue([=] { std::memcpy(dst, from, size); });
        ReportOk(faults_, status);
      });
  ON_CALL(*this, MemcpyHtoD)
      .WillByDefault([this](const SP_Device* d, SP_Stream stream, SP_DeviceMemoryBase* dst,
                            const void* src, uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kMemcpyHtoD, status)) return;
        WorkQueue* queue = QueueOf(d, stream, "memcpy_htod", status);
        if (queue == nullptr || !ValidRange(d, dst, size, "memcpy_htod", status)) return;
        void* to = dst->opaque;
        queue->Enqueue([=] { std::memcpy(to, src, size); });
        ReportOk(faults_, status);
      });
  ON_CALL(*this, MemcpyDtoD)
      .WillByDefault([this](const SP_Device* d, SP_Stream stream, SP_DeviceMemoryBase* dst,
                            const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kMemcpyDtoD, status)) return;
        WorkQueue* queue = QueueOf(d, stream, "memcpy_dtod", status);
        if (queue == nullptr) return;
        // Either side may live on another device of this mock (TensorFlow's copy from device 0
        // to device 1 runs on device 0's stream into device 1's memory): a peer copy. Every
        // device's memory is host memory here.
        if (!ValidRangeOnAnyDevice(dst, size, "memcpy_dtod", status)) return;
        void* to = dst->opaque;
        const void* from = src->opaque;
        queue->Enqueue([=] { std::memmove(to, from, size); });
        ReportOk(faults_, status);
      });
  ON_CALL(*this, SyncMemcpyDtoH)
      .WillByDefault([this](const SP_Device* d, void* dst, const SP_DeviceMemoryBase* src,
                            uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kSyncMemcpyDtoH, status)) return;
        if (!ValidRange(d, src, size, "sync_memcpy_dtoh", status)) return;
        std::memcpy(dst, src->opaque, size);
        ReportOk(faults_, status);
      });
  ON_CALL(*this, SyncMemcpyHtoD)
      .WillByDefault([this](const SP_Device* d, SP_DeviceMemoryBase* dst, const void* src,
                            uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kSyncMemcpyHtoD, status)) return;
        if (!ValidRange(d, dst, size, "sync_memcpy_htod", status)) return;
        std::memcpy(dst->opaque, src, size);
        ReportOk(faults_, status);
      });
  ON_CALL(*this, SyncMemcpyDtoD)
      .WillByDefault([this](const SP_Device*, SP_DeviceMemoryBase* dst,
                            const SP_DeviceMemoryBase* src, uint64_t size, TF_Status* status) {
        if (faults_.Inject(Callback::kSyncMemcpyDtoD, status)) return;
        if (!ValidRangeOnAnyDevice(dst, size, "sync_memcpy_dtod", status)) return;
        std::memmove(dst->opaque, src->opaque, size);
        ReportOk(faults_, status);
      });

  ON_CALL(*this, BlockHostForEvent)
      .WillByDefault([this](const SP_Device*, SP_Event event, TF_Status* status) {
        if (faults_.Inject(Callback::kBlockHostForEvent, status)) return;
        InMemoryDevice::WaitUntilDone(InMemoryDevice::Event(event));
        ReportOk(faults_, status);
      });
  ON_CALL(*this, BlockHostUntilDone)
      .WillByDefault([this](const SP_Device* d, SP_Stream stream, TF_Status* status) {
        if (faults_.Inject(Callback::kBlockHostUntilDone, status)) return;
        WorkQueue* queue = QueueOf(d, stream, "block_host_until_done", status);
        if (queue == nullptr) return;
        queue->Drain();
        ReportOk(faults_, status);
      });
  ON_CALL(*this, SynchronizeAllActivity)
      .WillByDefault([this](const SP_Device* d, TF_Status* status) {
        if (faults_.Inject(Callback::kSynchronizeAllActivity, status)) return;
        DeviceOf(d).DrainAll();
        ReportOk(faults_, status);
      });

  auto fill = [this](Callback which, const char* name) {
    return
        [this, which, name](const SP_Device* d, SP_Stream stream, SP_DeviceMemoryBase* location,
                            uint32_t pattern, int pattern_bytes, uint64_t size, TF_Status* status) {
          if (faults_.Inject(which, status)) return;
          WorkQueue* queue = QueueOf(d, stream, name, status);
          if (queue == nullptr || !ValidRange(d, location, size, name, status)) return;
          char* to = static_cast<char*>(location->opaque);
          queue->Enqueue([=] { FillPattern(to, size, pattern, pattern_bytes); });
          ReportOk(faults_, status);
        };
  };
  ON_CALL(*this, MemZero)
      .WillByDefault([f = fill(Callback::kMemZero, "mem_zero")](
                         const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* m, uint64_t n,
                         TF_Status* st) { f(d, s, m, 0, 1, n, st); });
  ON_CALL(*this, Memset)
      .WillByDefault([f = fill(Callback::kMemset, "memset")](
                         const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* m, uint8_t p,
                         uint64_t n, TF_Status* st) { f(d, s, m, p, 1, n, st); });
  ON_CALL(*this, Memset32)
      .WillByDefault([f = fill(Callback::kMemset32, "memset32")](
                         const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* m, uint32_t p,
                         uint64_t n, TF_Status* st) { f(d, s, m, p, 4, n, st); });

  ON_CALL(*this, HostCallback)
      .WillByDefault(
          [this](const SP_Device* d, SP_Stream stream, SE_StatusCallbackFn fn, void* arg) {
            if (faults_.HasError(Callback::kHostCallback)) return kFalse;
            WorkQueue* queue = QueueOf(d, stream, "host_callback", nullptr);
            if (queue == nullptr) return kFalse;
            queue->Enqueue([fn, arg, queue] {
              TF_Status* status = TF_NewStatus();
              fn(arg, status);
              if (TF_GetCode(status) != TF_OK)
                queue->SetError(TF_GetCode(status), TF_Message(status));
              TF_DeleteStatus(status);
            });
            return kTrue;
          });
}

}  // namespace conformance::mocks
