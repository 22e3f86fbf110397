#pragma once
// Runs a function in a forked child with its stdout and stderr captured, a deadline, and a
// second channel for its report: TensorFlow aborts the process on a plugin it refuses, and a
// plugin may crash or hang, so each plugin gets a process of its own.
#include <functional>
#include <string>

namespace tensorflow_driver {

struct ChildResult {
  bool timed_out = false;  // killed at a deadline: the whole run's, or a stalled step's
  bool stalled = false;    // killed because no report line came within the per-step limit
  int limit_ms = 0;        // the limit that killed it, when timed out
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it (SIGKILL after a timeout)
  std::string output;      // its stdout and stderr, interleaved as written
  std::string report;      // what it wrote to the report stream
};

// `body` gets the report stream (a FILE*, flushed line by line by the caller's convention).
// The child is killed at `timeout_ms`, and, when `step_timeout_ms` is positive, as soon as that
// long passes without a byte on the report stream: each step reports as it ends, so a hang in
// one kernel costs one step's limit, not the whole run's (which must fit hundreds of cases).
ChildResult RunInChild(const std::function<void(std::FILE* report)>& body, int timeout_ms,
                       int step_timeout_ms = 0);

}  // namespace tensorflow_driver
