#pragma once
// StreamWorker: one thread that runs tasks strictly in the order they were queued.
//
// This is what makes the simulated device asynchronous: a callback such as memcpy_htod only
// queues a task and returns, and the copy happens later on this thread. A caller that reads
// the result without synchronizing (event, block_host_until_done, ...) sees stale data, and
// ThreadSanitizer reports the race, exactly the kinds of bug a real device would punish.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace reference_plugin {

class StreamWorker {
 public:
  // `thread_name` shows up in debuggers and sanitizer reports (at most 15 characters used).
  explicit StreamWorker(std::string thread_name);
  ~StreamWorker();  // shut_down()
  StreamWorker(const StreamWorker&) = delete;
  StreamWorker& operator=(const StreamWorker&) = delete;

  // Queues `task` behind everything queued before. false once shut_down() has begun.
  bool enqueue(std::function<void()> task);

  // Runs `step` right now on the calling thread, if the worker is idle (nothing queued,
  // nothing running) and not shutting down; false (and nothing run) otherwise. For steps
  // that only mark "the stream got this far" (fences): on an idle stream that point has
  // been reached already, and running the step here saves a round trip through the worker
  // thread (a thread wake-up: 20-60 µs on a VM whose idle CPUs halt). Holds the queue's lock
  // while `step` runs, so nothing queued later can overtake it: keep `step` short.
  bool run_now_if_idle(const std::function<void()>& step);

  // Runs every task already queued, then stops the thread. Idempotent. Must not be called
  // from a task of this worker (it would wait for itself).
  void shut_down();

 private:
  void run();

  const std::string thread_name_;
  std::mutex mutex_;  // guards tasks_, shutting_down_ and running_
  std::condition_variable work_available_;
  std::deque<std::function<void()>> tasks_;
  bool shutting_down_ = false;
  bool running_ = false;   // the worker took a task and has not come back for the next one
  std::mutex join_mutex_;  // two threads must not join the same std::thread
  std::thread thread_;     // last: starts after the members above exist
};

}  // namespace reference_plugin
