#pragma once
// The example device: memory is host memory, each stream is an in-order queue run by its own
// thread (as on real hardware, work runs after the call that queued it returns).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace example {

class Stream {
 public:
  Stream();
  ~Stream();  // runs what is queued, then stops
  void Enqueue(std::function<void()> work);
  void Wait();                                   // until everything queued so far has run
  void Fail(TF_Code code, std::string message);  // sticky: the first error stays
  TF_Code status(std::string* message);

 private:
  void Run();
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool running_ = false, stopping_ = false;
  TF_Code code_ = TF_OK;
  std::string message_;
  std::thread worker_;
};

struct Event {
  std::mutex mutex;
  std::condition_variable done;
  SE_EventStatus status = SE_EVENT_UNKNOWN;
  void Set(SE_EventStatus s);
  void WaitUntilDone();
};

class Device {
 public:
  static constexpr uint64_t kMemoryBytes = uint64_t{1} << 30;
  void* Allocate(uint64_t size);
  void Deallocate(void* ptr);
  void Stats(SP_AllocatorStats* stats);
  int64_t bytes_in_use();
  Stream* NewStream();
  void DeleteStream(Stream* stream);
  void WaitAll();

 private:
  std::mutex mutex_;
  std::unordered_map<void*, uint64_t> blocks_;
  std::unordered_map<Stream*, bool> streams_;
  int64_t num_allocs_ = 0, in_use_ = 0, peak_ = 0, largest_ = 0;
};

}  // namespace example
