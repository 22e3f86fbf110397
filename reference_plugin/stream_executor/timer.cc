#include "stream_executor/timer.h"

namespace reference_plugin {

void Timer::mark_start() {
  std::lock_guard lock(mutex_);
  start_ = Clock::now();
  stop_.reset();
}

void Timer::mark_stop() {
  std::lock_guard lock(mutex_);
  stop_ = Clock::now();
}

uint64_t Timer::elapsed_nanoseconds() const {
  std::lock_guard lock(mutex_);
  if (!start_.has_value() || !stop_.has_value() || *stop_ < *start_) return 0;
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(*stop_ - *start_).count());
}

}  // namespace reference_plugin
