#include "isolate/unit_results.h"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "isolate/in_flight.h"
#include "loader/cxx_imports.h"
#include "model/tensorflow_fails_at.h"

namespace conformance::isolate {
namespace {

constexpr std::string_view kReportedTwiceProblem = "check reported more than once";

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", seconds);
  return text;
}

}  // namespace

std::string DescribeCurrentException() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  std::string description = type != nullptr ? loader::Demangle(type->name()) : "unknown exception";
  try {
    throw;
  } catch (const std::exception& error) {
    description += std::string(" (\"") + error.what() + "\")";
  } catch (...) {
  }
  return description;
}

AbnormalEnd UncaughtExceptionEnd(const std::string& description, std::string check,
                                 std::string call) {
  AbnormalEnd end;
  end.outcome = Outcome::kCrash;
  end.signal = "exception";
  end.summary = "uncaught exception " + description;
  end.check = std::move(check);
  end.call = std::move(call);
  return end;
}

std::vector<CheckResult> AcceptDeclaredResults(const TestUnit& unit,
                                               std::vector<CheckResult> emitted) {
  const std::set<std::string> declared(unit.check_ids.begin(), unit.check_ids.end());
  std::map<std::string, std::size_t> position;  // id -> index in `accepted`
  std::vector<CheckResult> accepted;
  std::vector<CheckResult> rejected;
  for (CheckResult& result : emitted) {
    if (!declared.contains(result.id)) {
      CheckResult stray;
      stray.id = unit.name;
      stray.outcome = Outcome::kFail;
      stray.message = "the unit's result stream holds a result for '" + result.id +
                      "', which is not one of its checks: ignored (" +
                      std::string(ToString(result.outcome)) + ")";
      stray.details["problem"] = "result for a check the unit does not own";
      rejected.push_back(std::move(stray));
      continue;
    }
    auto [it, first] = position.emplace(result.id, accepted.size());
    if (first) {
      accepted.push_back(std::move(result));
      continue;
    }
    // Two verdicts for one check: neither can be trusted, and a pass must not win.
    CheckResult& earlier = accepted[it->second];
    if (earlier.details.contains("problem") &&
        earlier.details.at("problem") == kReportedTwiceProblem) {
      continue;
    }
    const std::string outcomes =
        std::string(ToString(earlier.outcome)) + ", then " + std::string(ToString(result.outcome));
    earlier.outcome = Outcome::kFail;
    earlier.message = "the unit reported this check more than once (" + outcomes +
                      "): its result stream is not trustworthy";
    earlier.details["problem"] = std::string(kReportedTwiceProblem);
    earlier.crash.reset();
  }
  for (CheckResult& result : rejected) accepted.push_back(std::move(result));
  return accepted;
}

std::vector<CheckResult> CompleteUnitResults(const TestUnit& unit, std::vector<CheckResult> emitted,
                                             const std::optional<AbnormalEnd>& end,
                                             double unit_seconds) {
  std::vector<CheckResult> results = AcceptDeclaredResults(unit, std::move(emitted));
  std::set<std::string> reported;
  for (const CheckResult& result : results) reported.insert(result.id);

  std::string skip_reason = "not run: unit " + unit.name + " ended without reaching it";
  if (end) {
    // A check that already reported is over: a later crash belongs to the unit, not to it,
    // and must not give the check a second, contradicting result.
    const bool blame_check =
        !end->check.empty() && !end->after_unit_finished && !reported.contains(end->check);
    CheckResult failure;
    failure.id = blame_check ? end->check : unit.name;
    failure.outcome = end->outcome;
    failure.message = end->summary;
    if (!end->call.empty() && !end->summary_names_call) failure.message += " in " + end->call;
    // A timeout outside any plugin call still says what it waited for, and blames the
    // callback that owed it (the root cause of the check that catches that defect).
    const bool waited =
        end->outcome == Outcome::kTimeout && end->call.empty() && !end->waiting_for.empty();
    if (waited) failure.message += " waiting: " + end->waiting_for;
    if (end->after_unit_finished) failure.message += " after the unit finished";
    failure.details = end->details;
    if (!end->call.empty() && !end->off_path.empty()) {
      failure.message += " (" + end->off_path + ")";
      failure.details["tensorflow"] = end->off_path;
      // TensorFlow never makes that call: its process does not die of it (run/tensorflow_verdict).
      failure.details[std::string(kTensorFlowFailsAt)] = std::string(kNever);
    }
    // A bad address at opaque + offset: allocate's device pointers are not addresses, one
    // defect however many copies meet it (unless a probe of another defect was running).
    const bool bad_address = end->signal == "SIGSEGV" || end->signal == "SIGBUS";
    if (bad_address && !end->call.empty() && end->interior_pointer && end->probing_call.empty()) {
      failure.message += " (" + std::string(in_flight::kInteriorPointerNote) + ")";
      failure.details["failing_call"] = std::string(in_flight::kOpaqueNotAddressCall);
      failure.details["problem"] = std::string(in_flight::kOpaqueNotAddressProblem);
    }
    // A probe of an earlier call's result that dies: the earlier call's defect (a 25 GB
    // allocation that "succeeded" through a truncated size, probed by a copy near its end).
    if (!end->probing_call.empty()) {
      failure.message += " while probing " + end->probing_for;
      failure.details["failing_call"] = end->probing_call;
      failure.details["problem"] = end->probing_problem;
    }
    if (waited) {
      failure.details["waiting_for"] = end->waiting_for;
      if (!end->waiting_call.empty()) failure.details["failing_call"] = end->waiting_call;
      if (!end->waiting_problem.empty()) failure.details["problem"] = end->waiting_problem;
    }
    failure.details["unit_seconds"] = FormatSeconds(unit_seconds);
    // The check in flight ran for the rest of the unit's life, as far as anyone can tell.
    failure.seconds = unit_seconds;
    failure.crash = CrashInfo{end->signal, end->call, end->backtrace};
    // The crash is blamed on the plugin call in flight, so every unit dying in the same call
    // the same way is one root cause.
    if (!end->call.empty() && !failure.details.contains("failing_call")) {
      // SP_StreamExecutor's callbacks by their bare names, as every runtime check blames them.
      constexpr std::string_view kStreamExecutor = "SP_StreamExecutor.";
      failure.details["failing_call"] = end->call.starts_with(kStreamExecutor)
                                            ? end->call.substr(kStreamExecutor.size())
                                            : end->call;
    }
    if (!failure.details.contains("problem")) {
      failure.details["problem"] =
          end->outcome == Outcome::kTimeout ? "timed out" : "crashed (" + end->signal + ")";
    }

    if (!end->after_unit_finished) {
      skip_reason = end->outcome == Outcome::kTimeout
                        ? "not run: " + failure.id + " timed out"
                        : "not run: " + failure.id + " crashed (" + end->signal + ")";
    }
    reported.insert(failure.id);
    results.push_back(std::move(failure));
  }

  for (const std::string& id : unit.check_ids) {
    if (reported.contains(id)) continue;
    CheckResult skipped;
    skipped.id = id;
    skipped.outcome = Outcome::kSkipped;
    skipped.message = skip_reason;
    results.push_back(std::move(skipped));
    reported.insert(id);
  }
  return results;
}

}  // namespace conformance::isolate
