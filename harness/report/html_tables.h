#pragma once
// The HTML report's optional tables, each drawn from its own part of the JSON report and
// absent when that part is: the kernel tier's op coverage ("op_coverage") and the generation
// matrix ("matrix": {"rows": [...]}).
#include <string>

#include <nlohmann/json.hpp>

namespace conformance {

void AppendOpCoverage(std::string& html, const nlohmann::ordered_json& report);

// Rendered generically, whatever the rows hold: one column per key in first-seen order,
// arrays joined with ", ", objects as "k=v" pairs.
void AppendMatrix(std::string& html, const nlohmann::ordered_json& report);

}  // namespace conformance
