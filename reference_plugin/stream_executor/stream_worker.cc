#include "stream_executor/stream_worker.h"

#include <pthread.h>

#include <utility>

namespace reference_plugin {

StreamWorker::StreamWorker(std::string thread_name)
    : thread_name_(std::move(thread_name)), thread_([this] { run(); }) {}

StreamWorker::~StreamWorker() { shut_down(); }

bool StreamWorker::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (shutting_down_) return false;
    tasks_.push_back(std::move(task));
  }
  work_available_.notify_one();
  return true;
}

bool StreamWorker::run_now_if_idle(const std::function<void()>& step) {
  std::lock_guard lock(mutex_);
  if (shutting_down_ || running_ || !tasks_.empty()) return false;
  step();
  return true;
}

void StreamWorker::shut_down() {
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
  }
  work_available_.notify_one();
  std::lock_guard join_lock(join_mutex_);
  if (thread_.joinable()) thread_.join();
}

void StreamWorker::run() {
  pthread_setname_np(pthread_self(), thread_name_.substr(0, 15).c_str());
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      running_ = false;  // the previous task (if any) has finished
      work_available_.wait(lock, [this] { return shutting_down_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // shutting down and nothing left to run
      task = std::move(tasks_.front());
      tasks_.pop_front();
      running_ = true;
    }
    task();  // without the lock, so the host can keep queueing meanwhile
  }
}

}  // namespace reference_plugin
