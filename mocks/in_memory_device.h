#pragma once
// The default behaviour behind every mock callback: a working device whose memory is host
// memory, whose streams are in-order queues run by one worker thread each, with events,
// host callbacks and timers. Tests set expectations only on what they care about; this does
// the rest correctly.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::mocks {

// An in-order work queue: tasks run one at a time, in the order queued, on its own thread.
class WorkQueue {
 public:
  WorkQueue();
  ~WorkQueue();  // finishes queued work first
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  void Enqueue(std::function<void()> task);
  void Drain();  // returns once everything queued so far has run
  // Sticky error of the stream (a failed host callback); TF_OK until then.
  void SetError(TF_Code code, std::string message);
  TF_Code error(std::string* message) const;

 private:
  void Run();
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> tasks_;
  bool busy_ = false, stopping_ = false;
  TF_Code error_ = TF_OK;
  std::string error_message_;
  std::thread worker_;
};

// A one-shot barrier a test opens; shared so queued work can outlive the test's handle.
class Gate {
 public:
  Gate();
  void Open();
  void Wait() const;  // blocks until opened
  bool is_open() const;

 private:
  struct State {
    mutable std::mutex mutex;
    mutable std::condition_variable opened;
    bool open = false;
  };
  std::shared_ptr<State> state_;
};

struct MockEvent {
  std::mutex mutex;
  std::condition_variable changed;
  SE_EventStatus status = SE_EVENT_UNKNOWN;  // PENDING once recorded, COMPLETE once reached
};

struct MockTimer {
  std::mutex mutex;
  uint64_t start_ns = 0, stop_ns = 0;
};

class InMemoryDevice {
 public:
  explicit InMemoryDevice(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}
  ~InMemoryDevice();

  // Memory: 64-byte aligned host blocks; nullptr when capacity would be exceeded.
  void* Allocate(uint64_t size);
  // Counts the block free at once, and gives its memory back once every stream has run the
  // work queued before the call: TensorFlow without its BFC allocator deallocates a kernel's
  // inputs right after queuing the kernel.
  void Deallocate(void* opaque);
  // True when [opaque, opaque+size) lies inside one live allocation.
  bool Contains(const void* opaque, uint64_t size) const;
  void FillStats(SP_AllocatorStats* stats) const;
  uint64_t capacity() const { return capacity_; }
  uint64_t bytes_in_use() const;

  SP_Stream CreateStream();
  void DestroyStream(SP_Stream stream);
  WorkQueue* Queue(SP_Stream stream);  // nullptr for an unknown stream
  void DrainAll();

  SP_Event CreateEvent();
  void DestroyEvent(SP_Event event);
  static MockEvent* Event(SP_Event event) { return reinterpret_cast<MockEvent*>(event); }
  static void Complete(MockEvent* event, SE_EventStatus status);
  static void WaitUntilDone(MockEvent* event);

  SP_Timer CreateTimer();
  void DestroyTimer(SP_Timer timer);
  static MockTimer* Timer(SP_Timer timer) { return reinterpret_cast<MockTimer*>(timer); }

 private:
  const uint64_t capacity_;
  mutable std::mutex mutex_;
  void Release(const char* start);  // the block's memory, once the streams reached the free

  std::map<const char*, uint64_t, std::less<>> allocations_;  // start -> size
  std::set<const char*> freeing_;  // deallocated, waiting for the streams
  uint64_t in_use_ = 0, peak_ = 0, largest_ = 0;
  int64_t num_allocs_ = 0;
  std::map<SP_Stream, std::unique_ptr<WorkQueue>> streams_;
  std::set<SP_Event> events_;
  std::set<SP_Timer> timers_;
};

uint64_t NowNanoseconds();

}  // namespace conformance::mocks
