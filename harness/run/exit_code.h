#pragma once
// Exit codes of plugin_conformance (also in --help and specs/report/README.md):
//   0  conformant: the plugin loaded, every selected tier ran a check that passed, and no
//      result is fail, crash, timeout, unexpected_pass or flaky
//   1  not conformant
//   2  usage error: bad options, bad environment (sharding), bad waivers file, unusable
//      report path
//   3  the plugin could not be loaded: a `load.library.*` check broke conformance (then
//      nothing else about the plugin is meaningful, so CI can tell "broken build" apart
//      from "behaves wrongly")
//   4  internal harness error (a bug in this tool, or a report could not be written)
//   5  no device: the plugin loaded and reported 0 devices (model/no_device.h), so the device
//      tiers selected (runtime, kernels, models, stress) did not run; nothing failed and every
//      device-free tier verified something. Not a pass: on a runner without the hardware, gate
//      on `--tier load,graph,profiler`, which exits 0 when those are conformant (and every
//      report still says the device tiers were not selected, and why)
#include <vector>

#include "model/check_result.h"
#include "run/run_report.h"

namespace conformance {

enum class ExitCode : int {
  kConformant = 0,
  kNotConformant = 1,
  kUsageError = 2,
  kPluginNotLoaded = 3,
  kInternalError = 4,
  kNoDevice = 5,
};

// Whether a `load.library.` check broke conformance.
bool PluginNotLoaded(const std::vector<CheckResult>& results);

// The exit code for a run that completed: 3, 5, 1 or 0 (RunReport::Conformant).
ExitCode VerdictExitCode(const RunReport& report);

}  // namespace conformance
