#pragma once
// The per-op checks that follow an op's case checks: each runs the op's representative case
// (first scenario compared by value, first dtype the candidate registers, first non-empty
// shape) in a particular way and compares with the candidate's own first run, so a kernel that
// computes wrong numbers is blamed once, by its case checks, and not again here.
#include <optional>
#include <string>
#include <vector>

#include "kernels/case_runner.h"
#include "late_writer_failures.h"
#include "validate/check_log.h"

namespace conformance::kernel_tier {

struct Representative {
  const core::KernelRegistration* kernel = nullptr;
  kernels::CaseSpec spec;
  kernels::Outputs baseline;  // the candidate's own outputs of a normal run
  std::string label;          // "<dtype> <shapes>" for messages
  // The case's tolerance: a kernel may legally round differently from run to run (TensorFlow's
  // own GPU reductions do), so only `deterministic` asks for the same bits.
  kernels::Tolerance tolerance;
};

// What every case run of the op left behind, gathered while the case checks ran.
struct Hygiene {
  std::string changed_input;  // first case whose input bytes changed ("" if none)
  std::string leak;           // first case that leaked handles or device memory
  std::string leak_problem;
  std::string overrun;  // first case that wrote past the end of a buffer ("" if none)
  bool guarded = true;  // false: no guard bytes (the plugin does not set use_bfc_allocator)
};

// `hold` (a device's kernel): a failure waits there for work_after_compute's verdict (a late
// write lands in whatever buffer a later case reuses); nullptr: it is reported at once.
void CheckInputsUntouched(const std::string& op, const Hygiene& hygiene, LateWriterFailures* hold,
                          validate::CheckLog& log);
void CheckLeaks(const std::string& op, const Hygiene& hygiene, validate::CheckLog& log);
void CheckWritesInBounds(const std::string& op, const Hygiene& hygiene, LateWriterFailures* hold,
                         validate::CheckLog& log);
// Returns why the kernel's values vary between identical runs (a repeat outside the case's
// tolerance of the first run), or nullopt: a difference between a run and the baseline then
// shows nothing about the order or caching the later checks look for.
std::optional<std::string> CheckDeterministic(const std::string& op, kernels::CaseRunner& runner,
                                              const Representative& rep, validate::CheckLog& log);
void CheckLateInputs(const std::string& op, kernels::CaseRunner& runner, const Representative& rep,
                     validate::CheckLog& log);
// Returns the check's id when it caught the kernel finishing its work off the stream, else "".
std::string CheckWorkAfterCompute(const std::string& op, kernels::CaseRunner& runner,
                                  const Representative& rep, validate::CheckLog& log);
void CheckReusedBuffers(const std::string& op, kernels::CaseRunner& runner,
                        const Representative& rep, validate::CheckLog& log);
// TensorFlow's lifetimes (`bfc`: the plugin sets use_bfc_allocator, so a failure is a warning).
void CheckInputsReleasedAtEnqueue(const std::string& op, kernels::CaseRunner& runner,
                                  const Representative& rep, bool bfc, validate::CheckLog& log);
// The representative case and a second one (other values) computed from two threads at once on
// one kernel instance, each compared with its result computed alone.
void CheckConcurrentComputes(const std::string& op, kernels::CaseRunner& runner,
                             kernels::KernelTarget& target, const Representative& rep,
                             validate::CheckLog& log);
void CheckInjectedFaults(const std::string& op, kernels::CaseRunner& runner,
                         const Representative& rep, validate::CheckLog& log);

// Same outputs (both unset counts as the same).
bool SameOutputs(const kernels::Outputs& a, const kernels::Outputs& b);
// Same dtypes, shapes and set outputs, and values within `tolerance` of `expected`'s.
bool OutputsWithin(const kernels::Outputs& expected, const kernels::Outputs& actual,
                   const kernels::Tolerance& tolerance);

}  // namespace conformance::kernel_tier
