#pragma once
// Holds a plugin's stream with a call TensorFlow makes: a memcpy_htod whose source page is not
// there yet. The page is registered with userfaultfd, so the thread that reads it (the stream's
// worker on an asynchronous device) sleeps in a page fault until the hold ends, and everything
// queued behind the copy waits with it. TensorFlow 2.21 never calls host_callback
// (docs/tensorflow/calls.md), so a plugin whose host_callback is broken, or ends its process,
// is still held, and judged on what TensorFlow does. How long the hold lasts is StreamGate's
// rule (runtime/stream_gate.h), decided for the faulting thread: when that is the check's own
// thread (a synchronous device, or one that reads its source while enqueueing) the page is
// supplied at once and nothing is held.
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>

#include "runtime/stream_gate.h"

namespace conformance::runtime {

class CopyHold {
 public:
  // Made on the check's thread. Without userfaultfd (an old kernel, a seccomp filter)
  // available() is false and error() says why.
  CopyHold(std::chrono::milliseconds waiting_streak, std::chrono::milliseconds limit);
  ~CopyHold();  // opens the hold and stops serving faults
  CopyHold(const CopyHold&) = delete;
  CopyHold& operator=(const CopyHold&) = delete;

  bool available() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  // The bytes to copy from (kSourceBytes of them): reading them is what holds.
  const void* source() const { return page_; }
  static constexpr std::size_t kSourceBytes = 1;

  // Release the stream now.
  void Open() { gate_.Open(); }
  StreamGate::Release release() const { return gate_.release(); }

 private:
  void Serve();

  StreamGate gate_;
  std::string error_;
  int fault_fd_ = -1;
  int stop_fd_ = -1;
  void* page_ = nullptr;
  std::size_t page_bytes_ = 0;
  std::thread server_;
};

}  // namespace conformance::runtime
