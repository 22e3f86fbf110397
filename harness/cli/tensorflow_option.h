#pragma once
// --tensorflow DIR|auto: the plugin also goes into the vendor's installed TensorFlow (in a
// process of its own; its release, read first, picks the profile), its checks are units of the
// run (installed_tensorflow_units.h: the kernel cases run there on the plugin's device and on
// TensorFlow's CPU, the models as graphs), and the report's verdict block gains that
// TensorFlow's line (harness/installed_tensorflow).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_options.h"
#include "cli/installed_tensorflow_units.h"
#include "cli/run_cli.h"
#include "run/run_report.h"

namespace conformance {

// Throws a UsageError for --tensorflow with --matrix, which runs no single verdict to confirm.
// Nothing without --tensorflow.
void CheckTensorFlowOption(const CliOptions& options, const CliEnvironment& environment);

// Nothing without --tensorflow. Throws a UsageError naming the file looked for (a DIR without
// libtensorflow_cc.so.2), what `auto` tried, or why TensorFlow could not be loaded from there.
// The release comes from the package's metadata (the driver is asked only when it has none), the
// kernel cases (of `seed`, that release's op definitions) when the kernels tier may be selected,
// the models when the models tier may be: nothing of the plugin runs in TensorFlow yet.
std::optional<InstalledTensorFlowPlan> PlanInstalledTensorFlow(const CliOptions& options,
                                                               std::uint64_t seed,
                                                               const CliEnvironment& environment);

// The profile to emulate: --profile when given, else the one that stands for the installed
// `release` (said on `err`; a release no profile stands for keeps --profile's default, with a
// warning there).
std::string ProfileForInstalledRelease(const CliOptions& options, const std::string& release,
                                       const CliEnvironment& environment, std::ostream& err);

// Fills report.installed_tensorflow from the leg's session and the report's emulated verdict; a
// disagreement also becomes a warning of the run (a finding against the suite). The results are
// the units' (installed_tensorflow_units.h); nothing when no unit of the run went to TensorFlow.
void AttachInstalledTensorFlow(RunReport& report, const InstalledTensorFlowLeg& leg,
                               const CliEnvironment& environment);

}  // namespace conformance
