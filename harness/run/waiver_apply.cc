#include "run/waiver_apply.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "model/outcome.h"
#include "run/glob.h"
#include "run/root_causes.h"

namespace conformance {
namespace {

bool IsExpectedFailure(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kCrash || outcome == Outcome::kTimeout;
}

std::string FormatDate(const std::chrono::year_month_day& date) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return text;
}

// What a waiver names, for messages: 'its id glob', or root cause 'its root cause'.
std::string WaiverTarget(const Waiver& waiver) {
  if (!waiver.is_root_cause()) return "'" + waiver.id + "'";
  return "root cause '" + RootCauseLabel({waiver.callback, waiver.problem, waiver.kernel, "", {}}) +
         "'";
}

// Waivers that apply to this run: right profile, not expired. Expiry is reported, since
// an expired waiver silently turning into failures would puzzle whoever reads CI.
std::vector<const Waiver*> ActiveWaivers(const std::vector<Waiver>& waivers,
                                         const WaiverContext& context,
                                         std::vector<std::string>& warnings) {
  std::vector<const Waiver*> active;
  for (const Waiver& waiver : waivers) {
    if (!waiver.profile.empty() && !GlobMatch(waiver.profile, context.profile)) continue;
    if (waiver.until &&
        std::chrono::sys_days(*waiver.until) < std::chrono::sys_days(context.today)) {
      warnings.push_back(waiver.source + ": waiver for " + WaiverTarget(waiver) + " expired on " +
                         FormatDate(*waiver.until) + "; not applied");
      continue;
    }
    active.push_back(&waiver);
  }
  return active;
}

// A known flake (`flaky: true`) excuses a check whose outcome varied over --repeat, and
// nothing else: a check that fails every time is a failure, one that passes a pass (a flake
// that happened not to flake is no stale waiver).
void ApplyFlakyWaiver(const Waiver& waiver, CheckResult& result) {
  if (result.outcome != Outcome::kFlaky) return;
  result.outcome = Outcome::kWaived;
  result.waiver_reason = waiver.reason;
  result.details["waived_as"] = "flaky";
}

// A root-cause waiver without `kernel` matches its (callback, problem) for every kernel, as a
// vendor who writes "compute_func: wrong values" means; with one, only that kernel's root cause
// (`kernel`: the one the result's root cause is keyed by, root_causes.h).
bool WaiverMatches(const Waiver& waiver, const CheckResult& result, const std::string& kernel) {
  if (!waiver.is_root_cause()) return GlobMatch(waiver.id, result.id);
  const auto call = result.details.find(kFailingCallKey);
  const auto problem = result.details.find(kProblemKey);
  return call != result.details.end() && problem != result.details.end() &&
         call->second == waiver.callback && problem->second == waiver.problem &&
         (waiver.kernel.empty() || kernel == waiver.kernel);
}

// Why a waiver did nothing, if it did nothing. An exact id is judged against the whole
// selection, not this shard's results, so a sharded run does not warn about checks that run on
// another shard; a glob or a root cause is judged by the failures it waived in this run.
std::optional<std::string> UnusedWarning(const Waiver& waiver, bool waived_a_failure,
                                         const WaiverContext& context) {
  if (waiver.is_root_cause()) {
    if (waived_a_failure) return std::nullopt;
    return waiver.source + ": unused waiver: " + WaiverTarget(waiver) +
           " caused no failure in this run";
  }
  const bool selected =
      std::any_of(context.selected_ids.begin(), context.selected_ids.end(),
                  [&](const std::string& id) { return GlobMatch(waiver.id, id); });
  if (!selected) return waiver.source + ": waiver '" + waiver.id + "' matches no selected check";
  if (waiver.is_exact_id() || waived_a_failure) return std::nullopt;
  return waiver.source + ": unused waiver: '" + waiver.id +
         "' matches no failing check in this run";
}

}  // namespace

WaiverApplication ApplyWaivers(std::vector<CheckResult>& results,
                               const std::vector<Waiver>& waivers, const WaiverContext& context) {
  WaiverApplication application;
  const std::vector<const Waiver*> active = ActiveWaivers(waivers, context, application.warnings);
  std::set<const Waiver*> used;
  // A flaky waiver's matches that failed on every run: the first such check, for its warning.
  std::map<const Waiver*, std::string> failed_every_run;
  const std::vector<std::string> kernels = RootCauseKernels(results);
  for (std::size_t i = 0; i < results.size(); ++i) {
    CheckResult& result = results[i];
    for (const Waiver* waiver : active) {
      if (!WaiverMatches(*waiver, result, kernels[i])) continue;
      if (waiver->flaky) {
        if (result.outcome == Outcome::kFlaky) used.insert(waiver);
        if (IsExpectedFailure(result.outcome)) failed_every_run.emplace(waiver, result.id);
        ApplyFlakyWaiver(*waiver, result);
      } else if (IsExpectedFailure(result.outcome)) {
        result.outcome = Outcome::kWaived;
        result.waiver_reason = waiver->reason;
        used.insert(waiver);
      } else if (result.outcome == Outcome::kPass && waiver->is_exact_id()) {
        result.outcome = Outcome::kUnexpectedPass;
        result.waiver_reason = waiver->reason;
        result.message = "passed although waived (" + waiver->source +
                         "); remove the waiver if the fix is intended";
      } else if (result.outcome == Outcome::kPass) {
        continue;  // a glob's passing match: a later exact waiver may still name this check
      }
      break;
    }
  }
  for (const Waiver* waiver : active) {
    const auto consistent = failed_every_run.find(waiver);
    if (used.count(waiver) == 0 && consistent != failed_every_run.end()) {
      // Not unused: it matched a failure, which it cannot excuse.
      application.warnings.push_back(
          waiver->source + ": flaky waiver " + WaiverTarget(*waiver) + " matched " +
          consistent->second +
          ", which failed on every run: `flaky: true` excuses only a check whose outcome varies "
          "between runs (--repeat), not a consistent failure; fix it, or waive it without "
          "`flaky: true`");
      continue;
    }
    if (std::optional<std::string> warning =
            UnusedWarning(*waiver, used.count(waiver) != 0, context))
      application.warnings.push_back(*warning);
  }
  return application;
}

std::chrono::year_month_day TodayUtc() {
  return std::chrono::year_month_day(
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
}

}  // namespace conformance
