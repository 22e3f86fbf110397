#pragma once
// The HTML report (`--html FILE`): one self-contained page for people, rendered from the JSON
// report's document (RunReportToJson), so it shows exactly what the JSON says. No request of
// any kind: inline style and script only, and a Content-Security-Policy that forbids the rest.
// Every text from the report is escaped (html_text.h); a plugin's messages or output cannot
// add markup.
#include <string>

#include <nlohmann/json.hpp>

#include "report/check_lookup.h"

namespace conformance {

// The policy in the page's <meta http-equiv="Content-Security-Policy">.
inline constexpr const char* kHtmlReportContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

struct HtmlExtras {
  std::string bandwidth_svg;  // an <svg> element (svg_chart.h); empty: no chart section
};

// `lookup` supplies each check's catalogue text (rule, TensorFlow, fix, consequence).
std::string RenderHtmlReport(const nlohmann::ordered_json& report, const CheckLookup& lookup = {},
                             const HtmlExtras& extras = {});

}  // namespace conformance
