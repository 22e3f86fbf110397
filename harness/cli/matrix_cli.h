#pragma once
// plugin_conformance PLUGIN --matrix: the run of every profile behind the compatibility matrix
// (run/compatibility_matrix.h), its console table, its JSON report and its exit code.
#include <functional>

#include "cli/cli_options.h"
#include "cli/run_cli.h"
#include "report/html_report.h"
#include "run/run_plan.h"

namespace conformance {

// Throws UsageError for options --matrix cannot honour. `make_plan` turns options (with the
// profile and tiers of one row) into a plan, as a plain run would.
// The JSON and HTML reports carry the newest generation's full report plus the matrix.
int RunMatrix(const CliOptions& options, const CliEnvironment& environment,
              const std::function<RunPlan(const CliOptions&)>& make_plan,
              const HtmlExtras& html_extras = {});

}  // namespace conformance
