#pragma once
// Stream: an in-order queue of device work with its own worker thread, plus a sticky status.
//
// Two kinds of work go on a stream:
//  - operations (copies, fills, and later kernels): they do the device's real work. Once the
//    stream has failed they are skipped, as on real hardware where a faulted queue stops
//    executing; an operation that returns an error fails the stream.
//  - steps (fence signals, waits on other streams, timer timestamps, host callbacks): they
//    run whatever state the stream is in, because something outside the stream is waiting
//    for them (a host callback, for instance, must run exactly once no matter what).
// The first error wins and stays: get_stream_status reports it until the stream is destroyed.
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "stream_executor/fence.h"
#include "stream_executor/status.h"
#include "stream_executor/stream_worker.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

class Stream {
 public:
  explicit Stream(std::string name);
  ~Stream();  // shut_down()
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  const std::string& name() const { return name_; }

  // The errors returned by the enqueue functions below only mean "could not queue" (the
  // stream is being destroyed); errors of the work itself go to the stream status.
  Status enqueue_operation(std::function<Status()> operation);
  Status enqueue_step(std::function<void()> step);

  // Queues a fence that is signalled with the stream status when the stream reaches it.
  Status enqueue_fence(std::shared_ptr<Fence>* fence);
  // Runs `step` once the stream has run everything queued so far: now, on the calling thread,
  // when the stream is idle; otherwise as a step behind that work. Keep `step` short.
  Status run_when_reached(std::function<void()> step);
  // Queues a wait: work queued after it starts only once `fence` is signalled.
  Status enqueue_wait_for(std::shared_ptr<Fence> fence);

  // Blocks the calling thread until everything queued so far has run; returns the status.
  Status block_until_done();

  Status status() const;
  // Records `error` as the stream status unless the stream already failed.
  void fail(const Status& error);

  // Runs what is queued, then stops the worker; later enqueues fail. Idempotent.
  void shut_down();

 private:
  const std::string name_;
  mutable std::mutex status_mutex_;
  Status status_;
  // Last member: the worker's tasks use the members above, so it must stop before they go.
  StreamWorker worker_;
};

}  // namespace reference_plugin

// The opaque handle type of the C API (SP_Stream is SP_Stream_st*) is our Stream.
struct SP_Stream_st final : reference_plugin::Stream {
  using Stream::Stream;
};
