#pragma once
// The HTML report's only style sheet and script, inlined into every report (the report makes
// no request of any kind; its Content-Security-Policy forbids them).
#include <string_view>

namespace conformance {

extern const std::string_view kHtmlReportStyle;
// Filters the check rows: checkboxes name="outcome" and the select #tier-filter hide the
// rows (tr.check) whose data-outcome / data-tier they exclude, and #visible-count says how
// many rows remain.
extern const std::string_view kHtmlReportScript;

}  // namespace conformance
