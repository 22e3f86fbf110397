#pragma once
// The JSON report: everything a run knows, for machines. Its format is a public contract,
// described by specs/report/report.schema.json and specs/report/README.md; it is
// deliberately independent of the JSON that crosses the parent/child pipe, which is an
// internal detail of the isolator.
#include <string>

#include <nlohmann/json.hpp>

#include "report/check_lookup.h"
#include "run/run_report.h"

namespace conformance {

// Bumped on any incompatible change of the format.
inline constexpr int kJsonReportFormatVersion = 1;

// `lookup` adds each check's origin when the catalogue knows it. Ordered: the run's
// settings first, the results last, as a person reading the file expects.
nlohmann::ordered_json RunReportToJson(const RunReport& report, const CheckLookup& lookup = {});

// Reads a report back (for tools that merge shard reports, and the round-trip test).
// Derived fields (counts, conformant) are recomputed, not read. Throws
// std::runtime_error with the offending field for malformed input.
RunReport RunReportFromJson(const nlohmann::json& json);

// The file's text: indented, invalid UTF-8 from plugins replaced by U+FFFD rather than
// making serialization fail.
std::string RenderJsonReport(const RunReport& report, const CheckLookup& lookup = {});
// The same text from a document already built (the HTML report renders from the same one).
std::string JsonReportText(const nlohmann::ordered_json& document);

}  // namespace conformance
