#pragma once
// --tensorflow DIR|auto: the plugin also goes into the vendor's installed TensorFlow (in a
// process of its own, before the suite runs, so its release can pick the profile), the kernel
// cases run there on the plugin's device and on TensorFlow's CPU, and the report's verdict block
// gains that TensorFlow's line (harness/installed_tensorflow).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_options.h"
#include "cli/run_cli.h"
#include "run/run_report.h"

namespace conformance {

struct InstalledTensorFlowRun {
  std::string dir;               // the package folder used
  nlohmann::json driver_result;  // what TensorFlow did (harness/installed_tensorflow/README.md)
  nlohmann::json kernel_cases;   // the cases handed to it (null: none)
  nlohmann::json model_graphs;   // the models handed to it as graphs (null: none)
  double seconds = 0;            // how long it took, TensorFlow's loading included
};

// Throws a UsageError for --tensorflow with --matrix or --list, which run no single verdict to
// confirm. Nothing without --tensorflow.
void CheckTensorFlowOption(const CliOptions& options, const CliEnvironment& environment);

// Nothing without --tensorflow. Throws a UsageError naming the file looked for (a DIR without
// libtensorflow_cc.so.2), what `auto` tried, or why TensorFlow could not be loaded from there.
// Kernel cases (of `seed`) go along when the kernels tier is selected. A driver that died
// running the plugin is a run too (its driver_result says so), never a usage error.
std::optional<InstalledTensorFlowRun> RunInInstalledTensorFlow(const CliOptions& options,
                                                               std::uint64_t seed,
                                                               const CliEnvironment& environment);

// The profile to emulate: --profile when given, else the one that stands for the installed
// release (said on `err`; a release no profile stands for keeps --profile's default, with a
// warning there).
std::string ProfileForInstalledRelease(const CliOptions& options,
                                       const InstalledTensorFlowRun& installed,
                                       const CliEnvironment& environment, std::ostream& err);

// Fills report.installed_tensorflow from the run and the report's emulated verdict; a
// disagreement also becomes a warning of the run (a finding against the suite). Kernel cases
// that disagree with TensorFlow's CPU are added to the results as failures on their op, and
// TensorFlow refusing the plugin or its process dying as results of their own
// (installed_tensorflow/session_deaths.h).
void AttachInstalledTensorFlow(RunReport& report, const InstalledTensorFlowRun& installed,
                               const CliEnvironment& environment);

}  // namespace conformance
