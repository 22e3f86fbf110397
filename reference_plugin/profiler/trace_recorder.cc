#include "profiler/trace_recorder.h"

#include <chrono>
#include <utility>

namespace reference_plugin::profiler {

TraceRecorder& TraceRecorder::instance() {
  static TraceRecorder recorder;
  return recorder;
}

Status TraceRecorder::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (active())
    return failed_precondition("reference profiler: a profiling session is already running");
  events_.clear();
  active_.store(true, std::memory_order_release);
  return Status();
}

Status TraceRecorder::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active()) return failed_precondition("reference profiler: stop without a started session");
  active_.store(false, std::memory_order_release);
  return Status();
}

void TraceRecorder::record(TraceEvent event) {
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back(std::move(event));
}

std::vector<TraceEvent> TraceRecorder::events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::function<Status()> traced(const std::string& stream, std::string name,
                               std::function<Status()> operation) {
  if (!TraceRecorder::instance().active()) return operation;
  return [stream, name = std::move(name), operation = std::move(operation)] {
    const int64_t begin = now_ns();
    Status status = operation();
    TraceRecorder::instance().record(TraceEvent{stream, name, begin, now_ns()});
    return status;
  };
}

}  // namespace reference_plugin::profiler
