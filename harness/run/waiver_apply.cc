#include "run/waiver_apply.h"

#include <cstdio>

#include "model/outcome.h"
#include "run/glob.h"

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
      warnings.push_back(waiver.source + ": waiver for '" + waiver.id + "' expired on " +
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

}  // namespace

WaiverApplication ApplyWaivers(std::vector<CheckResult>& results,
                               const std::vector<Waiver>& waivers, const WaiverContext& context) {
  WaiverApplication application;
  const std::vector<const Waiver*> active = ActiveWaivers(waivers, context, application.warnings);
  for (CheckResult& result : results) {
    for (const Waiver* waiver : active) {
      if (!GlobMatch(waiver->id, result.id)) continue;
      if (waiver->flaky) {
        ApplyFlakyWaiver(*waiver, result);
      } else if (IsExpectedFailure(result.outcome)) {
        result.outcome = Outcome::kWaived;
        result.waiver_reason = waiver->reason;
      } else if (result.outcome == Outcome::kPass) {
        result.outcome = Outcome::kUnexpectedPass;
        result.waiver_reason = waiver->reason;
        result.message = "passed although waived (" + waiver->source +
                         "); remove the waiver if the fix is intended";
      }
      break;
    }
  }
  // Judged against the whole selection, not this shard's results, so a sharded run does
  // not warn about waivers whose checks happen to run on another shard.
  for (const Waiver* waiver : active) {
    bool matches = false;
    for (const std::string& id : context.selected_ids) {
      if (GlobMatch(waiver->id, id)) {
        matches = true;
        break;
      }
    }
    if (!matches) {
      application.warnings.push_back(waiver->source + ": waiver '" + waiver->id +
                                     "' matches no selected check");
    }
  }
  return application;
}

std::chrono::year_month_day TodayUtc() {
  return std::chrono::year_month_day(
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
}

}  // namespace conformance
