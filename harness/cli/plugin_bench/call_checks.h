#pragma once
// What timed loops do when a raw plugin call fails or never finishes: stop the benchmark
// with Google Benchmark's error mechanism (the run is reported as an error, not a number).
// Checking a TF_Status is one call into the core (TF_GetCode): nanoseconds, so every call
// inside a timed loop is checked; figures from failed calls would be meaningless.
#include <chrono>
#include <string_view>

#include <benchmark/benchmark.h>

#include "runtime/call_error.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::bench {

// true (and the benchmark is marked as failed) when `status` is not OK.
bool Failed(benchmark::State& state, TF_Status* status, std::string_view callback);
// Same for a wrapper's result used during setup.
bool Failed(benchmark::State& state, const runtime::CallStatus& status);

// A bound for spin-waits on the plugin (event completion, host callbacks), so a plugin that
// never completes fails the benchmark instead of hanging it.
class WaitDeadline {
 public:
  WaitDeadline() : end_(std::chrono::steady_clock::now() + kLimit) {}
  bool Passed() const { return std::chrono::steady_clock::now() > end_; }
  static constexpr std::chrono::seconds kLimit{10};

 private:
  std::chrono::steady_clock::time_point end_;
};

}  // namespace conformance::bench
