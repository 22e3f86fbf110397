#include "isolate/unit_results.h"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>
#include <set>
#include <utility>

namespace conformance::isolate {
namespace {

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", seconds);
  return text;
}

std::string Demangle(const char* name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = status == 0 && demangled != nullptr ? demangled : name;
  std::free(demangled);
  return result;
}

}  // namespace

std::string DescribeCurrentException() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  std::string description = type != nullptr ? Demangle(type->name()) : "unknown exception";
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

std::vector<CheckResult> CompleteUnitResults(const TestUnit& unit,
                                             std::vector<CheckResult> emitted,
                                             const std::optional<AbnormalEnd>& end,
                                             double unit_seconds) {
  std::vector<CheckResult> results = std::move(emitted);
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
    if (!end->call.empty()) failure.message += " in " + end->call;
    if (end->after_unit_finished) failure.message += " after the unit finished";
    failure.details = end->details;
    failure.details["unit_seconds"] = FormatSeconds(unit_seconds);
    failure.crash = CrashInfo{end->signal, end->call, end->backtrace};

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
