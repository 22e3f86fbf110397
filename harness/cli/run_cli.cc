#include "cli/run_cli.h"

#include <unistd.h>

#include <chrono>
#include <exception>
#include <optional>

#include "cli/check_list.h"
#include "cli/cli_options.h"
#include "report/atomic_file.h"
#include "report/console_report.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "run/exit_code.h"
#include "run/usage_error.h"
#include "run/waivers.h"

namespace conformance {
namespace {

// A seed that differs from run to run, kept to 32 bits so it is short to type back.
std::uint64_t SeedFromClock() {
  std::uint64_t x = static_cast<std::uint64_t>(
                        std::chrono::system_clock::now().time_since_epoch().count()) ^
                    (static_cast<std::uint64_t>(getpid()) << 32);
  // splitmix64 finalizer: nearby clock values give unrelated seeds.
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x & 0xFFFFFFFFULL;
}

void CheckReportPath(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  if (auto problem = ProblemWritingTo(path)) throw UsageError(option + ": " + *problem);
}

RunPlan MakePlan(const CliOptions& options, const CliEnvironment& environment,
                 std::optional<ShardSpec> shard, std::vector<Waiver> waivers) {
  RunPlan plan;
  plan.tool_version = environment.version;
  plan.settings.plugin_path = options.plugin;
  plan.settings.co_loaded_plugins = options.co_load;
  plan.settings.scenario_dirs = options.scenario_dirs;
  plan.settings.profile = options.profile;
  plan.settings.seed = options.seed ? *options.seed : SeedFromClock();
  plan.settings.verbose = options.verbose;
  plan.selection.tiers = options.tiers;
  plan.selection.filter = CheckFilter(options.filter);
  plan.selection.shard = shard;
  plan.isolation.timeout = std::chrono::milliseconds(options.timeout_ms);
  plan.isolation.isolate = !options.no_isolation;
  // In-process units cannot overlap. Units mostly wait (on the plugin's streams, on fork and
  // dlopen), so two children per CPU finish sooner than one (BENCHMARKS.md: 1.41 s against
  // 2.16 s on 2 CPUs) and no unit came near its timeout; more bought nothing but spread.
  plan.jobs =
      options.no_isolation ? 1 : options.jobs.value_or(std::max(1, 2 * environment.cpu_count));
  plan.waivers = std::move(waivers);
  return plan;
}

// Writes the file reports; false (after saying why on `err`) when one could not be written.
bool WriteFileReports(const CliOptions& options, const RunReport& report,
                      const CliEnvironment& environment) {
  bool ok = true;
  const auto write = [&](const std::string& path, const std::string& text) {
    if (path.empty()) return;
    try {
      WriteFileAtomically(path, text);
    } catch (const FileWriteError& error) {
      *environment.err << "plugin_conformance: error: " << error.what() << '\n';
      ok = false;
    }
  };
  write(options.json_path, RenderJsonReport(report, environment.lookup));
  write(options.junit_path, RenderJUnitReport(report, environment.lookup));
  return ok;
}

int Run(const CliOptions& options, const CliEnvironment& environment) {
  std::ostream& out = *environment.out;
  std::ostream& err = *environment.err;
  // Validate everything the user controls before the (possibly long) run starts.
  const std::optional<ShardSpec> shard = ShardFromEnvironment(environment.env);
  if (const std::string problem = TouchShardStatusFile(environment.env); !problem.empty()) {
    throw UsageError(problem);
  }
  if (options.no_isolation && options.timeout_given) {
    // In-process units have no watchdog that could stop a hung plugin and still report.
    throw UsageError(
        "--timeout cannot be honoured with --no-isolation (units run in this process, where "
        "nothing can stop a hung plugin and still write the report): drop one of the two");
  }
  if (!options.list && options.plugin.empty()) {
    throw UsageError("missing PLUGIN: the path of the plugin shared library to test (see --help)");
  }
  std::vector<Waiver> waivers;
  if (!options.waivers_path.empty()) waivers = LoadWaiverFile(options.waivers_path);
  CheckReportPath("--json", options.json_path);
  CheckReportPath("--junit", options.junit_path);

  const RunPlan plan = MakePlan(options, environment, shard, std::move(waivers));
  const auto suite_started = std::chrono::steady_clock::now();  // scenario files load here
  const std::vector<TestUnit> suite = environment.build_suite(plan.settings);
  const std::chrono::duration<double> suite_seconds = std::chrono::steady_clock::now() - suite_started;
  if (options.list) {
    WriteCheckList(out, Select(suite, plan.selection).check_ids, options.verbose,
                   environment.lookup);
    return static_cast<int>(ExitCode::kConformant);
  }

  const ConsoleStyle style{options.verbose, environment.colour};
  RunObserver observer;
  observer.on_start = [&](const RunReport& header) {
    WriteConsoleHeader(out, header, style);
    out.flush();
  };
  observer.on_unit_done = [&](const TestUnit& unit, const std::vector<CheckResult>& reported,
                              std::size_t done, std::size_t total) {
    WriteUnitProgress(out, unit, reported, done, total, style);
    out.flush();
  };
  observer.on_warning = [&](const std::string& warning) {
    err << "plugin_conformance: warning: " << warning << '\n';
  };
  RunReport report = RunConformance(suite, plan, environment.run_units, observer);
  report.wall_seconds += suite_seconds.count();  // loading and validating scenarios is part of the run
  WriteConsoleSummary(out, report, style, environment.lookup);
  out.flush();
  if (!WriteFileReports(options, report, environment)) {
    return static_cast<int>(ExitCode::kInternalError);
  }
  return static_cast<int>(VerdictExitCode(report.results));
}

}  // namespace

int RunCli(int argc, const char* const* argv, const CliEnvironment& environment) {
  const ParsedCommandLine parsed =
      ParseCommandLine(argc, argv, environment.version, *environment.out, *environment.err);
  if (!parsed.options) return parsed.exit_code;
  try {
    return Run(*parsed.options, environment);
  } catch (const UsageError& error) {
    *environment.err << "plugin_conformance: error: " << error.what() << '\n';
    return static_cast<int>(ExitCode::kUsageError);
  } catch (const std::exception& error) {
    *environment.err << "plugin_conformance: internal error: " << error.what() << '\n';
    return static_cast<int>(ExitCode::kInternalError);
  }
}

}  // namespace conformance
