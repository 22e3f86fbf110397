#pragma once
// Runs a function in a forked child with its stdout and stderr captured, a deadline, and a
// second channel for its report: TensorFlow aborts the process on a plugin it refuses, and a
// plugin may crash or hang, so each plugin gets a process of its own.
#include <functional>
#include <string>

namespace tensorflow_driver {

struct ChildResult {
  bool timed_out = false;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it (SIGKILL after a timeout)
  std::string output;  // its stdout and stderr, interleaved as written
  std::string report;  // what it wrote to the report stream
};

// `body` gets the report stream (a FILE*, flushed line by line by the caller's convention).
ChildResult RunInChild(const std::function<void(std::FILE* report)>& body, int timeout_ms);

}  // namespace tensorflow_driver
