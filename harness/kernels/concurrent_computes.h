#pragma once
// One kernel instance computed from two threads at once, as TensorFlow does: a graph node
// has one OpKernel, and eager execution caches one per (op, attrs, device), while concurrent
// runs of the graph (its inter-op threads, or several Python threads) call its compute at the
// same time. Its OpKernel contract asks compute to be thread-safe for that reason.
//
// Each round: two cases on buffers of their own (one per thread), the plugin's stream held by a
// host callback, both threads released from a spinning barrier into compute on the same
// instance, the stream let go once both returned, and both results read back. A kernel that
// keeps its per-call state (arguments, scratch) in the kernel object has both computes write
// it before any queued work reads it, so the round shows the race whatever the timing; the hold
// ends early only when a computing thread sleeps on the held stream (runtime/stream_gate.h).
#include <functional>
#include <string>

#include "kernels/case_runner.h"

namespace conformance::kernels {

struct ConcurrentOutcome {
  bool ran = false;           // false: the harness could not run it (see harness_error)
  std::string harness_error;  // a runtime call failed, or a case cannot run this way
  int rounds = 0;             // rounds completed
  int failed_round = -1;      // the first round a result was rejected in (1-based; -1: none)
  int failed_thread = -1;     // which of the two cases (0 or 1)
  Outputs rejected;           // what that thread's compute gave
  TF_Code code = TF_OK;       // its status
  std::string message;
};

// Runs `cases[0]` and `cases[1]` concurrently on one instance of `kernel`, up to `rounds` times,
// stopping at the first round where `accept(thread, code, outputs)` says no. `hold_stream`:
// hold the plugin's stream while both compute (a device; a host device has no stream).
ConcurrentOutcome RunConcurrently(
    KernelTarget& target, const core::KernelRegistration& kernel, const CaseSpec (&cases)[2],
    int rounds, bool hold_stream,
    const std::function<bool(int thread, TF_Code code, const Outputs& outputs)>& accept);

}  // namespace conformance::kernels
