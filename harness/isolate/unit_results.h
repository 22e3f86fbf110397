#pragma once
// Completing a unit's result list once it is over, however it ended: the crash or timeout
// becomes a result for the check in flight, and every declared check that never reported is
// `skipped` with the reason. Shared by the isolated and the in-process runner so both modes
// report the same things.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance::isolate {

// The unit did not end by returning from run(), or its process died afterwards.
struct AbnormalEnd {
  Outcome outcome = Outcome::kCrash;  // kCrash or kTimeout
  std::string signal;                 // CrashInfo::signal: "SIGSEGV", "exit(3)", "timeout"
  std::string summary;                // start of the message: "SIGSEGV (Segmentation fault)"
  std::string check;                  // check in flight, empty if none
  std::string call;                   // plugin call in flight, empty if none
  std::string
      off_path;  // why that call is one TensorFlow never makes (in_flight::OffTensorFlowPath)
  // What the harness waited for outside any plugin call (in_flight::Waiting), for timeouts.
  std::string waiting_call, waiting_problem, waiting_for;
  std::string probing_call, probing_problem, probing_for;  // in_flight::Probing
  bool interior_pointer = false;  // the call had a range at opaque + offset (in_flight.h)
  std::vector<std::string> backtrace;
  std::map<std::string, std::string> details;
  bool after_unit_finished = false;  // run() had returned; only the process died later
  bool summary_names_call = false;   // the summary already says "during <call>"
};

// "std::runtime_error (\"what\")" for the exception being handled; call inside a catch block.
std::string DescribeCurrentException();

// The end of a unit whose run() threw: a crash of the check in flight, named after the call
// the exception escaped from.
AbnormalEnd UncaughtExceptionEnd(const std::string& description, std::string check,
                                 std::string call);

// What the unit emitted, checked against what it declared: one result per declared check (a
// check reported twice becomes a `fail` saying so; a pass must never win over a second
// verdict), and a `fail` filed under the unit for every result of a check it does not own.
std::vector<CheckResult> AcceptDeclaredResults(const TestUnit& unit,
                                               std::vector<CheckResult> emitted);

// AcceptDeclaredResults, then the abnormal end (if any) and `skipped` for the rest.
std::vector<CheckResult> CompleteUnitResults(const TestUnit& unit, std::vector<CheckResult> emitted,
                                             const std::optional<AbnormalEnd>& end,
                                             double unit_seconds);

}  // namespace conformance::isolate
