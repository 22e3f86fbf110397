#include "validate/check_log.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "isolate/in_flight.h"
#include "model/tensorflow_fails_at.h"
#include "validate/tf_messages.h"

namespace conformance::validate {

CheckLog::CheckLog(ResultSink& sink, std::vector<std::string> declared_ids)
    : sink_(sink), declared_(std::move(declared_ids)) {}

void CheckLog::Begin(std::string_view id) {
  running_ = std::string(id);
  started_ = std::chrono::steady_clock::now();
  in_flight::BeginCheck(id);
}

void CheckLog::Emit(CheckResult result) {
  bool declared = false;
  for (const auto& id : declared_) declared = declared || id == result.id;
  if (!declared) {
    // Emitting an undeclared id would hide it from --list and the catalogue test.
    std::fprintf(stderr, "plugin_conformance: internal error: check %s emitted but not declared\n",
                 result.id.c_str());
    std::abort();
  }
  if (result.id == running_) {
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    running_.clear();
    in_flight::EndCheck();
  }
  emitted_.insert(result.id);
  sink_.Emit(std::move(result));
}

namespace {

CheckResult MakeResult(std::string_view id, Outcome outcome, std::string message = {},
                       Details details = {}) {
  CheckResult result;
  result.id = std::string(id);
  result.outcome = outcome;
  result.message = std::move(message);
  result.details = std::move(details);
  return result;
}

}  // namespace

void CheckLog::Pass(std::string_view id, Details details) {
  Emit(MakeResult(id, Outcome::kPass, {}, std::move(details)));
}

void CheckLog::Fail(std::string_view id, std::string message, std::optional<int> tf_code,
                    Details details) {
  if (tf_code && !blame_.empty() && !details.contains("failing_call"))
    details.merge(Details(blame_));
  CheckResult result = MakeResult(id, Outcome::kFail, std::move(message), std::move(details));
  result.tf_code = tf_code;
  if (tf_code && !tensorflow_refuses_) {
    result.details[std::string(kTensorFlowFailsAt)] = std::string(kNever);
  }
  // A status TensorFlow raises only when the plugin is first used, or never, does not stop the
  // loading.
  if (tf_code && !FailsAtFirstUse(result) && !TensorFlowNeverFails(result) &&
      tensorflow_failures_++ == 0) {
    first_tensorflow_failure_ = std::string(id);
  }
  Emit(std::move(result));
}

void CheckLog::Warn(std::string_view id, std::string message, Details details) {
  Emit(MakeResult(id, Outcome::kWarning, std::move(message), std::move(details)));
}

void CheckLog::NotSupported(std::string_view id, std::string reason) {
  Emit(MakeResult(id, Outcome::kNotSupported, std::move(reason)));
}

void CheckLog::Skip(std::string_view id, std::string reason) {
  Emit(MakeResult(id, Outcome::kSkipped, std::move(reason)));
}

bool CheckLog::Require(std::string_view id, bool ok, std::string_view tf_message) {
  if (ok) {
    Pass(id);
  } else {
    Fail(id, std::string(tf_message), kTfFailedPrecondition);
  }
  return ok;
}

bool CheckLog::Expect(std::string_view id, bool ok, std::string_view message) {
  if (ok) {
    Pass(id);
  } else {
    Fail(id, std::string(message));
  }
  return ok;
}

void CheckLog::SkipRemaining(std::string_view prefix, std::string_view reason) {
  for (const auto& id : declared_) {
    if (id.starts_with(prefix) && !emitted_.contains(id)) Skip(id, std::string(reason));
  }
}

}  // namespace conformance::validate
