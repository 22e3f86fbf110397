#pragma once
// The orchestration of one run: select → shard → run units → filter results → waivers →
// RunReport. The unit runner is a parameter: the CLI passes RunUnits (child processes),
// tests pass an in-process fake, and this library does not depend on the isolator.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "isolate/unit_runner.h"
#include "run/run_plan.h"
#include "run/run_report.h"

namespace conformance {

// Why a unit that drives a StreamExecutor (runtime, stress, models) reports not_supported for
// a CPU kernel plugin, which TensorFlow loads without a device module.
inline constexpr const char* kNoStreamExecutorModule =
    "not applicable: a CPU kernel plugin has no StreamExecutor module";

// Why a unit that drives a device reports skipped for a plugin that reported 0 devices.
inline constexpr const char* kNoDeviceSkip =
    "not run: no device (load.se.device_count.positive: get_device_count reported 0; TensorFlow "
    "registers no device for this plugin)";

// Same contract as RunUnits (isolate/unit_runner.h).
using UnitsRunner =
    std::function<void(const std::vector<TestUnit>& units, const RunSettings& settings,
                       const IsolationOptions& options, int jobs, const UnitDone& on_done)>;

// Optional callbacks for live output; all run on the calling thread.
struct RunObserver {
  // Before any unit runs: the report with everything but results (to print the seed
  // early, so a run that hangs or is killed can still be reproduced).
  std::function<void(const RunReport& header)> on_start;
  // As each unit finishes (completion order), with the results that will be reported.
  std::function<void(const TestUnit& unit, const std::vector<CheckResult>& reported,
                     std::size_t units_done, std::size_t units_total)>
      on_unit_done;
  // Non-fatal problems (e.g. a waiver that matches nothing), as they arise.
  std::function<void(const std::string& warning)> on_warning;
};

// Throws UsageError for a bad selection; std::logic_error if the runner breaks its
// contract (a unit reported twice or never).
RunReport RunConformance(const std::vector<TestUnit>& suite, const RunPlan& plan,
                         const UnitsRunner& runner, const RunObserver& observer = {});

// The report's header fields (no results) for a plan and its selection.
RunReport StartReport(const RunPlan& plan, const Selection& selection);

}  // namespace conformance
