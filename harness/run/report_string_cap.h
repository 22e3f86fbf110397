#pragma once
// Plugin-controlled strings in reports are capped: a plugin whose device type is 100 KB long
// would otherwise repeat it in every message of every check (36 MB reports). Each result's
// message, details values and crash frames keep their first kReportStringCap bytes (cut on a
// UTF-8 boundary) followed by a note saying how much was cut.
#include <cstddef>
#include <string>
#include <vector>

#include "model/check_result.h"

namespace conformance {

inline constexpr std::size_t kReportStringCap = 4096;

// `text` itself when short enough; else its head and "... [N more bytes cut: ...]".
std::string CapReportString(std::string text, std::size_t cap = kReportStringCap);
// Applies CapReportString to every string a result carries that a plugin can control.
void CapReportStrings(std::vector<CheckResult>& results);

}  // namespace conformance
