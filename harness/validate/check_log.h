#pragma once
// Emits check results from inside a unit: times each check, marks it in flight (so a crash is
// attributed to it), and knows which declared checks are still outstanding so that an early
// exit can report them `skipped` with a reason instead of leaving them unexplained.
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/test_unit.h"

namespace conformance::validate {

using Details = std::map<std::string, std::string>;

class CheckLog {
 public:
  CheckLog(ResultSink& sink, std::vector<std::string> declared_ids);

  void Begin(std::string_view id);
  void Pass(std::string_view id, Details details = {});
  void Fail(std::string_view id, std::string message, std::optional<int> tf_code = {},
            Details details = {});
  void Warn(std::string_view id, std::string message, Details details = {});
  void NotSupported(std::string_view id, std::string reason);
  void Skip(std::string_view id, std::string reason);

  // A TensorFlow validation rule: pass when `ok`, else FAILED_PRECONDITION with TensorFlow's text.
  bool Require(std::string_view id, bool ok, std::string_view tf_message);
  // One of our stricter rules: pass when `ok`, else fail with our message (no TensorFlow code).
  bool Expect(std::string_view id, bool ok, std::string_view message);

  // While set, every failure with a TensorFlow code is one the emulated release does not refuse
  // the plugin for (details[kTensorFlowFailsAt] = kNever, model/tensorflow_fails_at.h): it does
  // not stop the loading and counts in no load verdict.
  void SetTensorFlowRefuses(bool refuses) { tensorflow_refuses_ = refuses; }

  // While set, a failure with a TensorFlow code and no failing_call of its own also carries these
  // details: a status an init function returns after the load tier refused its dlopen is blamed
  // on that dlopen (validate/opened_libraries.h), in one root cause with it.
  void SetBlame(Details blame) { blame_ = std::move(blame); }
  void ClearBlame() { blame_.clear(); }

  // Reports every declared, not yet emitted check starting with `prefix` as skipped.
  void SkipRemaining(std::string_view prefix, std::string_view reason);
  bool Emitted(std::string_view id) const { return emitted_.contains(std::string(id)); }
  // Failures carrying a TensorFlow code that TensorFlow raises while loading (not at first use):
  // what would make TensorFlow stop loading the plugin.
  int tensorflow_failures() const { return tensorflow_failures_; }
  const std::string& first_tensorflow_failure() const { return first_tensorflow_failure_; }

 private:
  void Emit(CheckResult result);

  ResultSink& sink_;
  std::vector<std::string> declared_;
  std::set<std::string> emitted_;
  std::string running_;
  bool tensorflow_refuses_ = true;
  int tensorflow_failures_ = 0;
  std::string first_tensorflow_failure_;
  Details blame_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace conformance::validate
