#include "cli/matrix_cli.h"

#include <algorithm>
#include <chrono>

#include "report/json_report.h"
#include "report/report_file.h"
#include "run/compatibility_matrix.h"
#include "run/tiers.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

// Tiers of every row: load always (it decides the row), runtime by default (pass/fail counts
// where TensorFlow loads the plugin; the run layer skips it with TensorFlow's reason where it
// does not). --tier adds or replaces what runs beyond load.
std::vector<std::string> MatrixTiers(const std::vector<std::string>& named) {
  std::vector<std::string> tiers = named.empty() ? std::vector<std::string>{"runtime"} : named;
  if (std::find(tiers.begin(), tiers.end(), "load") == tiers.end()) tiers.push_back("load");
  return tiers;
}

void CheckMatrixOptions(const CliOptions& options, const CliEnvironment& environment) {
  if (options.profile_given) {
    throw UsageError("--matrix runs every profile; drop --profile (or drop --matrix to emulate " +
                     options.profile + " alone)");
  }
  if (options.list) throw UsageError("--matrix cannot be combined with --list");
  if (options.junit_path) {
    throw UsageError(
        "--junit: --matrix writes no JUnit report (one per profile would repeat "
        "every check); use --json FILE, or run each --profile on its own");
  }
  if (ShardFromEnvironment(environment.env)) {
    throw UsageError(
        "--matrix cannot be sharded (GTEST_TOTAL_SHARDS is set): every row needs "
        "the whole load tier");
  }
  if (environment.generations.empty()) throw UsageError("--matrix: no profiles are known");
}

}  // namespace

int RunMatrix(const CliOptions& options, const CliEnvironment& environment,
              const std::function<RunPlan(const CliOptions&)>& make_plan,
              const HtmlExtras& html_extras) {
  CheckMatrixOptions(options, environment);
  std::ostream& out = WritesToStandardOutput(options) ? *environment.err : *environment.out;
  std::vector<MatrixRow> rows;
  std::optional<RunReport> newest;
  RunObserver observer;
  observer.on_warning = [&](const std::string& warning) {
    *environment.err << "plugin_conformance: warning: " << warning << '\n';
  };
  CliOptions row_options = options;
  for (const MatrixGeneration& generation : environment.generations) {
    row_options.profile = generation.profile;
    row_options.tiers = MatrixTiers(options.tiers);
    RunPlan plan = make_plan(row_options);
    // Only the row's tiers are built, as for a run that names its tiers: every row parsed every
    // tier's scenario files, a third of an ASan build's `--matrix --tier load`. Vendor scenario
    // files are still checked whole (a bad one is a usage error whatever the tiers).
    if (options.scenario_dirs.empty()) plan.settings.built_tiers = TiersToBuild(row_options.tiers);
    if (!row_options.seed) {  // one seed for every row, printed so the matrix can be replayed
      row_options.seed = plan.settings.seed;
      out << "plugin_conformance --matrix " << options.plugin << " (seed " << *row_options.seed
          << ")\n";
    }
    const auto started = std::chrono::steady_clock::now();
    RunReport report = RunConformance(environment.build_suite(plan.settings), plan,
                                      environment.run_units, observer);
    // The matrix chose these tiers, the user did not: a tier of a module the plugin lacks
    // (all not_supported) must not make every row non-conformant.
    report.named_tiers = options.tiers;
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
    rows.push_back(MakeMatrixRow(generation, report));
    out << generation.profile << " (TensorFlow " << generation.releases
        << "): " << rows.back().verdict << " in " << static_cast<int>(seconds.count() * 10) / 10.0
        << " s\n";
    out.flush();
    if (!newest) newest = std::move(report);
  }
  MarkBuiltFor(rows, environment.generations);
  WriteMatrixTable(out, options.plugin, rows);
  out.flush();
  // The newest generation's full report, plus the matrix; the HTML page renders from it too.
  nlohmann::ordered_json document = RunReportToJson(*newest, environment.lookup);
  document["matrix"] = MatrixJson(rows);
  const bool json_written = WriteReport(options.json_path, JsonReportText(document), environment);
  const bool html_written =
      !options.html_path ||
      WriteReport(options.html_path, RenderHtmlReport(document, environment.lookup, html_extras),
                  environment);
  if (!json_written || !html_written) return static_cast<int>(ExitCode::kInternalError);
  return static_cast<int>(MatrixExitCode(rows));
}

}  // namespace conformance
