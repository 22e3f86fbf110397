#pragma once
// --write-waivers FILE: the run's failures as a waivers file, the baseline a new plugin starts
// from on its first day (as the runners of Vulkan drivers keep their expected failures). One
// entry per check that failed, crashed, timed out or was waived, in suite order; a fresh failure
// gets a reason placeholder (with its message, so the vendor can write the real reason), a
// waived one keeps its reason. Checks that now pass are left out: their waivers were stale.
#include <string>
#include <vector>

#include "model/check_result.h"

namespace conformance {

inline constexpr const char* kWaiverReasonPlaceholder = "TODO: say why, and link the ticket";

// The YAML text of the waivers file (readable back by ParseWaivers); `plugin` goes into the
// header comment.
std::string RenderWaiverBaseline(const std::vector<CheckResult>& results,
                                 const std::string& plugin);

}  // namespace conformance
