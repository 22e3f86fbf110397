#pragma once
// TraceRecorder: the device work (copies, kernels) that ran on the plugin's streams while a
// profiling session was active. TensorFlow runs one profiling session at a time per process,
// so there is one recorder per process. Work is timed on the stream's worker thread, when it
// really runs, not when it is queued.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "stream_executor/status.h"

namespace reference_plugin::profiler {

struct TraceEvent {
  std::string stream;  // "refdev<ordinal>.s<n>": the device and stream it ran on
  std::string name;    // "memcpy_htod", a kernel's node name, ...
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
};

class TraceRecorder {
 public:
  static TraceRecorder& instance();

  // start refuses a second session; stop refuses a stop without start (TensorFlow still calls
  // stop when start failed, and gets an error instead of a crash).
  Status start();
  Status stop();
  bool active() const { return active_.load(std::memory_order_acquire); }
  void record(TraceEvent event);
  // Events of the last session, in the order they finished.
  std::vector<TraceEvent> events() const;

 private:
  std::atomic<bool> active_{false};
  mutable std::mutex mutex_;
  std::vector<TraceEvent> events_;
};

int64_t now_ns();

// `operation`, timed into the recorder if a session is active when it is queued; unchanged
// (no cost) otherwise.
std::function<Status()> traced(const std::string& stream, std::string name,
                               std::function<Status()> operation);

}  // namespace reference_plugin::profiler
