#pragma once
// What real TensorFlow would make of the plugin, derived from every TensorFlow-origin result
// (co-loading included): TensorFlow stops at the first check it enforces that fails (a failure
// carrying a TF_Code, or any failure of a check whose catalogue origin is TensorFlow), and
// dies with the plugin on a crash or hang. Also picks up the header generation the plugin was
// built against (load.se.header_generation's finding).
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/outcome.h"
#include "run/run_report.h"

namespace conformance {

// A check's origin from the catalogue; nullopt when the catalogue does not know the id (then
// only a TF_Code makes a failure TensorFlow's).
using OriginLookup = std::function<std::optional<Origin>(std::string_view check_id)>;

// The summary of a verdict that cannot be known without TensorFlow: the plugin imports
// TensorFlow's C++ symbols, which the mock core does not provide.
inline constexpr std::string_view kUnknownWithoutTensorFlow =
    "unknown here: the plugin imports TensorFlow's C++ symbols, which only TensorFlow's own "
    "libraries export; judge it in TensorFlow with --tensorflow DIR|auto";

// The same for a library the plugin loads that imports a C API function the mock core does not
// implement through one of TensorFlow's libraries (harness/validate/unhosted_imports.h).
inline constexpr std::string_view kUnknownCApiWithoutTensorFlow =
    "unknown here: a library the plugin loads imports a TensorFlow C API function the mock core "
    "does not implement, which TensorFlow's own libraries may export; judge it in TensorFlow "
    "with --tensorflow DIR|auto";

// The verdict object ({loads, summary, check, message, code, plugin_status: model/
// tensorflow_fails_at.h's kPluginStatusDetail}, or {unknown: true, summary,
// check}) from results in suite order; nullopt when nothing decides it (the load tier did not
// run).
std::optional<nlohmann::json> TensorFlowVerdict(const std::vector<CheckResult>& results,
                                                const OriginLookup& origin_of = {});

// Whether a verdict says TensorFlow would not load the plugin (an unknown verdict does not).
bool TensorFlowRefuses(const std::optional<nlohmann::json>& verdict);

// From the report's own results, or from `run` (every result the run produced, reported or
// not): a shard reports some checks but runs the whole load tier, which the verdict needs.
void FillTensorFlowVerdict(RunReport& report, const OriginLookup& origin_of = {});
void FillTensorFlowVerdict(RunReport& report, const std::vector<CheckResult>& run,
                           const OriginLookup& origin_of);

}  // namespace conformance
