#pragma once
// The HTML report's check list: the outcome and tier filters, then one table row per result
// (id="check-<id>", data-outcome, data-tier) with its message and, folded, the catalogue
// text, seed, TF_Code, crash, waiver and captured plugin output.
#include <string>

#include <nlohmann/json.hpp>

#include "report/check_lookup.h"

namespace conformance {

// A result's tier: its "tier" field, else the first component of its id.
std::string ResultTier(const nlohmann::ordered_json& result);

// The element id of a result's row: "check-" + its check id.
std::string CheckAnchor(const std::string& check_id);

// The filters and the table of `report["results"]`, appended to `html`.
void AppendCheckSection(std::string& html, const nlohmann::ordered_json& report,
                        const CheckLookup& lookup);

}  // namespace conformance
