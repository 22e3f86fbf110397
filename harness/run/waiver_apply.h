#pragma once
// Applies waivers to a run's results:
//  - a waived check that failed, crashed or timed out becomes `waived` (its message stays,
//    the waiver's reason goes into waiver_reason);
//  - a check named by an exact-id waiver that passed becomes `unexpected_pass`: the waiver is
//    stale and must go, otherwise it would hide the next regression of that check;
//  - a glob or a root cause (callback + problem) waives the failures it matches and nothing
//    else: the checks it matches that pass stay `pass`, and a glob or root cause that waived
//    no failure of this run is reported as unused;
//  - warning, not_supported and skipped are left alone: they neither confirm nor refute
//    the expected failure.
// The first matching waiver (file order) wins.
#include <chrono>
#include <string>
#include <vector>

#include "model/check_result.h"
#include "run/waivers.h"

namespace conformance {

struct WaiverContext {
  std::string profile;                    // --profile as given
  std::chrono::year_month_day today;      // UTC date, for `until`
  std::vector<std::string> selected_ids;  // every check id the selection covers
};

struct WaiverApplication {
  std::vector<std::string> warnings;  // stale, expired or unmatched waivers
};

WaiverApplication ApplyWaivers(std::vector<CheckResult>& results,
                               const std::vector<Waiver>& waivers, const WaiverContext& context);

// Today's date in UTC.
std::chrono::year_month_day TodayUtc();

}  // namespace conformance
