#pragma once
// Timer: two timestamps taken on a stream's worker, when the stream reaches start_timer and
// stop_timer; nanoseconds() is the time between them. Only older TensorFlow generations use
// timers (the newest core neither validates nor calls them), but the slots remain.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace reference_plugin {

class Timer {
 public:
  void mark_start();  // also forgets an earlier stop
  void mark_stop();
  // 0 until both timestamps were taken (in that order).
  uint64_t elapsed_nanoseconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  mutable std::mutex mutex_;  // the worker writes, the host reads
  std::optional<Clock::time_point> start_;
  std::optional<Clock::time_point> stop_;
};

}  // namespace reference_plugin

// The opaque handle type of the C API (SP_Timer is SP_Timer_st*) is our Timer.
struct SP_Timer_st final : reference_plugin::Timer {};
