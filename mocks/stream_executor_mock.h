#pragma once
// gmock class for SP_StreamExecutor. FillTable() writes a C table, laid out for the chosen
// TensorFlow generation, whose function pointers trampoline into this object (through the
// SP_Device's device_handle). Default actions are a working in-memory device, so a test sets
// expectations only on what it cares about:
//
//   testing::NiceMock<MockStreamExecutor> se;
//   SP_Device device = se.MakeDevice(0);
//   SP_StreamExecutor table = se.Table();
//   EXPECT_CALL(se, Allocate(&device, 256, 0, testing::_));   // default action still runs
//   se.FailAllocation(2);                                      // the second allocate fails
#include <gmock/gmock.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

#include "mocks/callbacks.h"
#include "mocks/faults.h"
#include "mocks/generation.h"
#include "mocks/in_memory_device.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::mocks {

class MockStreamExecutor {
 public:
  explicit MockStreamExecutor(Generation generation = Generation::kNewest,
                              uint64_t memory_bytes_per_device = uint64_t{1} << 30);
  virtual ~MockStreamExecutor();
  MockStreamExecutor(const MockStreamExecutor&) = delete;
  MockStreamExecutor& operator=(const MockStreamExecutor&) = delete;

  MOCK_METHOD(void, Allocate, (const SP_Device*, uint64_t, int64_t, SP_DeviceMemoryBase*));
  MOCK_METHOD(void, Deallocate, (const SP_Device*, SP_DeviceMemoryBase*));
  MOCK_METHOD(void*, HostMemoryAllocate, (const SP_Device*, uint64_t));
  MOCK_METHOD(void, HostMemoryDeallocate, (const SP_Device*, void*));
  MOCK_METHOD(void*, UnifiedMemoryAllocate, (const SP_Device*, uint64_t));
  MOCK_METHOD(void, UnifiedMemoryDeallocate, (const SP_Device*, void*));
  MOCK_METHOD(TF_Bool, GetAllocatorStats, (const SP_Device*, SP_AllocatorStats*));
  MOCK_METHOD(TF_Bool, DeviceMemoryUsage, (const SP_Device*, int64_t*, int64_t*));
  MOCK_METHOD(void, CreateStream, (const SP_Device*, SP_Stream*, TF_Status*));
  MOCK_METHOD(void, DestroyStream, (const SP_Device*, SP_Stream));
  MOCK_METHOD(void, CreateStreamDependency, (const SP_Device*, SP_Stream, SP_Stream, TF_Status*));
  MOCK_METHOD(void, GetStreamStatus, (const SP_Device*, SP_Stream, TF_Status*));
  MOCK_METHOD(void, CreateEvent, (const SP_Device*, SP_Event*, TF_Status*));
  MOCK_METHOD(void, DestroyEvent, (const SP_Device*, SP_Event));
  MOCK_METHOD(SE_EventStatus, GetEventStatus, (const SP_Device*, SP_Event));
  MOCK_METHOD(void, RecordEvent, (const SP_Device*, SP_Stream, SP_Event, TF_Status*));
  MOCK_METHOD(void, WaitForEvent, (const SP_Device*, SP_Stream, SP_Event, TF_Status*));
  MOCK_METHOD(void, CreateTimer, (const SP_Device*, SP_Timer*, TF_Status*));
  MOCK_METHOD(void, DestroyTimer, (const SP_Device*, SP_Timer));
  MOCK_METHOD(void, StartTimer, (const SP_Device*, SP_Stream, SP_Timer, TF_Status*));
  MOCK_METHOD(void, StopTimer, (const SP_Device*, SP_Stream, SP_Timer, TF_Status*));
  MOCK_METHOD(void, MemcpyDtoH,
              (const SP_Device*, SP_Stream, void*, const SP_DeviceMemoryBase*, uint64_t,
               TF_Status*));
  MOCK_METHOD(void, MemcpyHtoD,
              (const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, const void*, uint64_t,
               TF_Status*));
  MOCK_METHOD(void, MemcpyDtoD,
              (const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, const SP_DeviceMemoryBase*,
               uint64_t, TF_Status*));
  MOCK_METHOD(void, SyncMemcpyDtoH,
              (const SP_Device*, void*, const SP_DeviceMemoryBase*, uint64_t, TF_Status*));
  MOCK_METHOD(void, SyncMemcpyHtoD,
              (const SP_Device*, SP_DeviceMemoryBase*, const void*, uint64_t, TF_Status*));
  MOCK_METHOD(void, SyncMemcpyDtoD,
              (const SP_Device*, SP_DeviceMemoryBase*, const SP_DeviceMemoryBase*, uint64_t,
               TF_Status*));
  MOCK_METHOD(void, BlockHostForEvent, (const SP_Device*, SP_Event, TF_Status*));
  MOCK_METHOD(void, BlockHostUntilDone, (const SP_Device*, SP_Stream, TF_Status*));
  MOCK_METHOD(void, SynchronizeAllActivity, (const SP_Device*, TF_Status*));
  MOCK_METHOD(void, MemZero,
              (const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint64_t, TF_Status*));
  MOCK_METHOD(void, Memset,
              (const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint8_t, uint64_t, TF_Status*));
  MOCK_METHOD(void, Memset32,
              (const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, uint32_t, uint64_t, TF_Status*));
  MOCK_METHOD(TF_Bool, HostCallback, (const SP_Device*, SP_Stream, SE_StatusCallbackFn, void*));

  Generation generation() const { return generation_; }
  bool Has(Callback callback) const { return CallbackOffset(callback, generation_).has_value(); }

  // --- The C side --------------------------------------------------------------------------
  // An SP_Device whose callbacks reach this mock's device `ordinal` (what create_device fills).
  SP_Device MakeDevice(int ordinal = 0);
  // Frees device `ordinal`'s memory, streams and events (what destroy_device does).
  void ReleaseDevice(int ordinal);
  // Writes the table into core storage of Facts(generation()).stream_executor_size bytes.
  void FillTable(void* storage) const;
  // The table as the newest header declares it (only for Generation::kNewest).
  SP_StreamExecutor Table() const;
  // Makes every later callback report "used after its plugin was unloaded".
  void Unload();

  // --- Fault injection (changes the default actions) ---------------------------------------
  void FailAllocation(int nth) { faults_.FailAllocation(nth); }  // 1 = the first allocate
  // Status callbacks report the error; allocate fails; TF_Bool callbacks return false.
  void ReturnError(Callback callback, TF_Code code, std::string message) {
    faults_.SetError(CallbackName(callback), {code, std::move(message)});
  }
  void LeaveNull(Callback callback) { faults_.LeaveNull(CallbackName(callback)); }
  // Queues a wait on `stream` behind the returned gate: later work waits until gate.Open().
  Gate DelayStream(const SP_Device* device, SP_Stream stream);
  void NeverCompleteEvents() { faults_.NeverCompleteEvents(); }
  void LeaveUnwritten(OutParam param) { faults_.LeaveUnwritten(param); }
  void WritePastEnd(std::size_t bytes) {
    faults_.WritePastEnd(FilledStruct::kStreamExecutor, bytes);
  }
  Faults& faults() { return faults_; }

  // --- The working device behind the default actions -------------------------------------
  InMemoryDevice& device(int ordinal);
  InMemoryDevice& DeviceOf(const SP_Device* device);
  // The mock behind `device` (nullptr when its mock is gone), and that device's ordinal.
  static MockStreamExecutor* FromDevice(const SP_Device* device, int* ordinal = nullptr);

  // For EXPECT_MOCK_CALL: fails the test when `call` names a callback this generation lacks.
  MockStreamExecutor& RequireCallback(std::string_view call, const char* file, int line);

 private:
  void InstallDefaultActions();
  bool ValidRange(const SP_Device* device, const SP_DeviceMemoryBase* memory, uint64_t size,
                  const char* callback, TF_Status* status);
  WorkQueue* QueueOf(const SP_Device* device, SP_Stream stream, const char* callback,
                     TF_Status* status);
  // Across this mock's devices, as a driver allows: a stream may wait for another device's
  // stream (cudaStreamWaitEvent across devices), and a device-to-device copy may write the
  // other device's memory (TensorFlow copies MOCK_DEVICE:0 to :1 that way,
  // docs/tensorflow/calls.md).
  WorkQueue* QueueOfAnyDevice(SP_Stream stream, const char* callback, TF_Status* status);
  bool ValidRangeOnAnyDevice(const SP_DeviceMemoryBase* memory, uint64_t size, const char* callback,
                             TF_Status* status);

  const Generation generation_;
  const uint64_t memory_bytes_per_device_;
  Faults faults_;
  std::mutex mutex_;
  std::map<int, std::unique_ptr<InMemoryDevice>> devices_;
  std::map<int, void*> device_tokens_;
};

}  // namespace conformance::mocks

// EXPECT_CALL that first checks the callback exists in the mock's TensorFlow generation, e.g.
//   EXPECT_MOCK_CALL(se, MemZero(_, _, _, _, _));   // fails clearly on a tf2.7 mock
#define EXPECT_MOCK_CALL(mock, call) \
  EXPECT_CALL((mock).RequireCallback(#call, __FILE__, __LINE__), call)
