#include "cli/run_cli.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <set>
#include <variant>

#include "cli/bench_chart_option.h"
#include "cli/catalogue_json.h"
#include "cli/check_list.h"
#include "cli/cli_options.h"
#include "cli/matrix_cli.h"
#include "cli/plugin_file.h"
#include "cli/profile_option.h"
#include "cli/tensorflow_option.h"
#include "report/console_report.h"
#include "report/html_report.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "report/report_file.h"
#include "run/did_you_mean.h"
#include "run/exit_code.h"
#include "run/precision_warnings.h"
#include "run/tiers.h"
#include "run/usage_error.h"
#include "run/waiver_baseline.h"
#include "run/waivers.h"

namespace conformance {

constexpr const char* kErrorPrefix = "plugin_conformance: error: ";

bool WriteReport(const std::optional<std::string>& path, const std::string& text,
                 const CliEnvironment& environment) {
  if (!path) return true;
  try {
    WriteReportFile(*path, text, *environment.out);
    return true;
  } catch (const FileWriteError& error) {
    *environment.err << kErrorPrefix << error.what() << '\n';
    return false;
  }
}

bool WritesToStandardOutput(const CliOptions& options) {
  return options.json_path == kStandardOutputPath || options.junit_path == kStandardOutputPath ||
         options.html_path == kStandardOutputPath;
}

namespace {

// --seed random: a seed that differs from run to run, kept to 32 bits so it is short to type
// back.
std::uint64_t SeedFromClock() {
  std::uint64_t x =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(getpid()) << 32);
  // splitmix64 finalizer: nearby clock values give unrelated seeds.
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x & 0xFFFFFFFFULL;
}

void CheckReportPaths(const CliOptions& options) {
  const auto check = [](const char* option, const std::optional<std::string>& path) {
    if (!path) return;
    if (auto problem = ProblemWithReportPath(*path)) {
      throw UsageError(std::string(option) + ": " + *problem);
    }
  };
  check("--json", options.json_path);
  check("--junit", options.junit_path);
  check("--html", options.html_path);
  check("--write-waivers", options.write_waivers_path);
  const std::pair<const char*, const std::optional<std::string>*> reports[] = {
      {"--json", &options.json_path},
      {"--junit", &options.junit_path},
      {"--html", &options.html_path},
      {"--write-waivers", &options.write_waivers_path}};
  for (std::size_t i = 0; i < std::size(reports); ++i) {
    for (std::size_t j = i + 1; j < std::size(reports); ++j) {
      const auto& [first, first_path] = reports[i];
      const auto& [second, second_path] = reports[j];
      if (*first_path && *second_path && SameReportTarget(**first_path, **second_path)) {
        throw UsageError(std::string(first) + " and " + second + " name the same file '" +
                         **first_path + "'; give each report its own path");
      }
    }
  }
  if (options.list && options.junit_path) {
    throw UsageError("--junit: --list writes no JUnit report (use --list --json FILE)");
  }
  if (options.list && options.html_path) {
    throw UsageError("--html: --list writes no HTML report (use --list --json FILE)");
  }
  if (options.write_waivers_path && (options.list || options.matrix)) {
    throw UsageError(std::string("--write-waivers: ") + (options.list ? "--list" : "--matrix") +
                     " runs no single selection whose failures it could write");
  }
  if (!options.bench_path.empty() && !options.html_path) {
    throw UsageError("--bench: the bandwidth chart goes into the HTML report; add --html FILE");
  }
}

void CheckProfile(const std::string& profile, const std::vector<std::string>& known) {
  if (profile.empty()) throw UsageError("--profile: empty profile name");
  if (known.empty() || std::find(known.begin(), known.end(), profile) != known.end()) return;
  std::string message = "unknown profile '" + profile + "'";
  if (auto suggestion = ClosestMatch(profile, known)) {
    message += " (did you mean '" + *suggestion + "'?)";
  }
  message += "; known profiles:";
  for (const std::string& name : known) message += " " + name;
  throw UsageError(message);
}

// The runtime tier drives a StreamExecutor; TensorFlow loads a CPU kernel plugin without one.
// Asked for by name (not by default, where it is merely not applicable), it cannot run.
void CheckRuntimeTierApplies(const CliOptions& options) {
  if (std::find(options.tiers.begin(), options.tiers.end(), "runtime") == options.tiers.end())
    return;
  if (options.plugin.empty() || !IsCpuKernelPluginFile(options.plugin)) return;
  throw UsageError("--tier runtime: '" + options.plugin +
                   "' is a CPU kernel plugin (TF_InitKernel without SE_InitPlugin): it has no "
                   "StreamExecutor module for the runtime tier to drive; its kernels run in "
                   "--tier kernels, on TensorFlow's CPU device");
}

void CheckCoLoadedPlugins(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (auto problem = PluginFileProblem(path)) {
      throw UsageError("--co-load: " + *problem +
                       " (a co-loaded plugin must load; it has no "
                       "checks of its own to report it)");
    }
  }
}

RunPlan MakePlan(const CliOptions& options, const CliEnvironment& environment,
                 std::optional<ShardSpec> shard, std::vector<Waiver> waivers) {
  RunPlan plan;
  plan.tool_version = environment.version;
  plan.settings.plugin_path = options.plugin;
  plan.settings.co_loaded_plugins = options.co_load;
  plan.settings.scenario_dirs = options.scenario_dirs;
  if (!options.precision_path.empty()) {
    if (!environment.load_precision) throw UsageError("--precision: not available in this build");
    plan.settings.declared_precision =
        environment.load_precision(options.precision_path, options.scenario_dirs, options.plugin);
  }
  plan.repeat = options.repeat;
  plan.settings.profile = options.profile;
  plan.settings.seed = options.seed          ? *options.seed
                       : options.seed_random ? SeedFromClock()
                                             : kDefaultSeed;
  plan.settings.verbose = options.verbose;
  plan.settings.judge_from_record =
      options.tensorflow.empty() && !options.list &&
      (options.tiers.empty() ||
       std::find(options.tiers.begin(), options.tiers.end(), "kernels") != options.tiers.end() ||
       std::find(options.tiers.begin(), options.tiers.end(), "all") != options.tiers.end());
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
  plan.force_runtime = options.force_runtime;
  plan.settings.force_runtime = options.force_runtime;
  plan.origin_of = [lookup = environment.lookup](std::string_view id) -> std::optional<Origin> {
    const CheckEntry* entry = Lookup(lookup, id);
    if (entry == nullptr) return std::nullopt;
    return entry->origin;
  };
  plan.may_fail = [lookup = environment.lookup](std::string_view id) {
    const CheckEntry* entry = Lookup(lookup, id);
    return entry == nullptr || entry->origin != Origin::kStricter ||
           MayFail(entry->consequence_kind);
  };
  return plan;
}

// The cells a kernel scenario of the suite covers: its case checks are
// "kernel.<Op>.<dtype>.<case>" (a property check, "kernel.<Op>.<property>", names no dtype).
std::set<std::pair<std::string, std::string>> ScenarioCells(const std::vector<TestUnit>& suite) {
  std::set<std::pair<std::string, std::string>> cells;
  for (const TestUnit& unit : suite) {
    if (unit.tier != "kernels") continue;
    for (const std::string& id : unit.check_ids) {
      const std::size_t op = id.find('.');
      const std::size_t dtype = op == std::string::npos ? op : id.find('.', op + 1);
      const std::size_t name = dtype == std::string::npos ? dtype : id.find('.', dtype + 1);
      if (name == std::string::npos) continue;
      cells.emplace(id.substr(op + 1, dtype - op - 1), id.substr(dtype + 1, name - dtype - 1));
    }
  }
  return cells;
}

// Every cell the plugin registers, so the report says which no check judged: without
// --tensorflow, a kernel no built-in scenario covers is run by nothing, and must not pass
// unmentioned. Only when the kernel tier ran on a plugin that loaded.
void AttachRegisteredKernels(RunReport& report, const std::vector<TestUnit>& suite,
                             const CliEnvironment& environment) {
  // A plugin judged in the installed TensorFlow only does not come up in the mock core at all.
  // Nor without a device: the kernel tier did not run (model/no_device.h), and the listing
  // brings the plugin up on its device.
  if (!environment.list_registered_cells || !report.PluginLoaded() ||
      report.JudgedInInstalledTensorFlowOnly() || !report.no_device.empty() ||
      std::find(report.tiers.begin(), report.tiers.end(), "kernels") == report.tiers.end()) {
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  auto listed = environment.list_registered_cells(report.plugin_path, report.profile);
  report.wall_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (const auto* why = std::get_if<std::string>(&listed)) {
    const std::string warning =
        "the plugin's kernel registrations could not be listed, so the report cannot say which "
        "kernels no check judged: " +
        *why;
    report.warnings.push_back(warning);
    *environment.err << "plugin_conformance: warning: " << warning << '\n';
    return;
  }
  const std::set<std::pair<std::string, std::string>> scenario_cells = ScenarioCells(suite);
  std::vector<RegisteredCell> cells;
  for (auto& [op, dtype] : std::get<0>(listed)) {
    // A kernel of every dtype is covered by any scenario of its op.
    const bool scenario =
        dtype == kEveryDtype
            ? std::any_of(scenario_cells.begin(), scenario_cells.end(),
                          [&op = op](const auto& cell) { return cell.first == op; })
            : scenario_cells.contains({op, dtype});
    cells.push_back({std::move(op), std::move(dtype), scenario});
  }
  report.registered_kernels = std::move(cells);
}

int List(const CliOptions& options, const std::vector<TestUnit>& suite, const Selection& selection,
         const CliEnvironment& environment) {
  if (options.json_path) {
    const std::string text = RenderCatalogueJson(selection.check_ids, suite, environment.lookup);
    if (!WriteReport(options.json_path, text, environment)) {
      return static_cast<int>(ExitCode::kInternalError);
    }
    if (*options.json_path == kStandardOutputPath) return static_cast<int>(ExitCode::kConformant);
  }
  WriteCheckList(*environment.out, selection.check_ids, options.verbose, environment.lookup);
  return static_cast<int>(ExitCode::kConformant);
}

int Run(const CliOptions& options, const CliEnvironment& environment) {
  // A report on standard output keeps it machine-readable: the console report moves to stderr.
  std::ostream& out = WritesToStandardOutput(options) ? *environment.err : *environment.out;
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
  CheckProfile(options.profile, environment.profiles);
  CheckReportPaths(options);
  CheckTensorFlowOption(options, environment);
  CheckCoLoadedPlugins(options.co_load);
  CheckRuntimeTierApplies(options);
  HtmlExtras html_extras;
  if (!options.bench_path.empty())
    html_extras.bandwidth_svg = LoadBandwidthChart(options.bench_path, options.plugin, err);
  std::vector<Waiver> waivers;
  if (!options.waivers_path.empty())
    waivers = LoadWaiverFile(options.waivers_path, environment.profiles);

  if (options.matrix) {
    return RunMatrix(
        options, environment,
        [&](const CliOptions& row_options) {
          return MakePlan(row_options, environment, shard, waivers);
        },
        html_extras);
  }
  RunPlan plan = MakePlan(options, environment, shard, std::move(waivers));
  // Before the suite is built: the installed release decides the profile it runs under, and the
  // installed TensorFlow's checks join the suite as units (nothing of the plugin runs there yet).
  std::optional<InstalledTensorFlowLeg> installed;
  if (std::optional<InstalledTensorFlowPlan> tensorflow_plan =
          PlanInstalledTensorFlow(options, plan.settings.seed, environment)) {
    plan.settings.profile =
        ProfileForInstalledRelease(options, tensorflow_plan->release, environment, err);
    installed.emplace(std::move(*tensorflow_plan), options, environment);
  }
  // Only the named tiers' units, unless vendor scenario files must still be checked (a bad one
  // is a usage error whatever the tiers) or --list shows every tier.
  if (!options.list && options.scenario_dirs.empty())
    plan.settings.built_tiers = TiersToBuild(options.tiers);
  const auto build_suite = [&](const RunSettings& settings) {
    std::vector<TestUnit> units = environment.build_suite(settings);
    if (installed) {
      for (TestUnit& unit : InstalledTensorFlowUnits(installed->plan()))
        units.push_back(std::move(unit));
    }
    return units;
  };
  const auto suite_started = std::chrono::steady_clock::now();  // scenario files load here
  std::vector<TestUnit> suite = build_suite(plan.settings);
  const std::chrono::duration<double> suite_seconds =
      std::chrono::steady_clock::now() - suite_started;
  std::optional<Selection> selection;
  try {
    try {
      selection = Select(suite, plan.selection);
    } catch (const EmptySelectionError&) {
      if (plan.settings.built_tiers.empty()) throw;
      // Nothing selected: the whole suite's error says in which other tier the filter's checks
      // are (the same selection, so the same error, with the units left out to name them).
      RunSettings every_tier = plan.settings;
      every_tier.built_tiers.clear();
      Select(build_suite(every_tier), plan.selection);
      throw;
    }
  } catch (const EmptySelectionError& error) {
    // The plugin's own problem comes first: no selection could have tested it.
    if (!options.list) {
      if (auto problem = PluginFileProblem(options.plugin)) {
        err << kErrorPrefix << "the plugin could not be loaded: " << *problem << '\n';
        return static_cast<int>(ExitCode::kPluginNotLoaded);
      }
    }
    throw;
  }
  if (options.list) return List(options, suite, *selection, environment);

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
  const UnitsRunner runner = installed ? WithInstalledTensorFlow(environment.run_units, *installed)
                                       : environment.run_units;
  RunReport report = RunConformance(suite, plan, runner, observer);
  report.wall_seconds +=
      suite_seconds.count();  // loading and validating scenarios is part of the run
  if (installed) {
    AttachInstalledTensorFlow(report, *installed, environment);
    if (report.installed_tensorflow && report.installed_tensorflow->contains("finding")) {
      err << "plugin_conformance: warning: " << report.warnings.back() << '\n';
    }
  }
  AttachRegisteredKernels(report, suite, environment);
  for (std::string& warning :
       PrecisionWarnings(report.declared_precision, report.registered_kernels)) {
    err << "plugin_conformance: warning: " << warning << '\n';
    report.warnings.push_back(std::move(warning));
  }
  WriteConsoleSummary(out, report, style, environment.lookup);
  out.flush();
  // Every report is attempted even if one fails, so one bad path loses only its own. The HTML
  // report renders from the JSON report's document: one source of truth.
  const nlohmann::ordered_json document = RunReportToJson(report, environment.lookup);
  const bool json_written = WriteReport(options.json_path, JsonReportText(document), environment);
  const bool junit_written =
      WriteReport(options.junit_path, RenderJUnitReport(report, environment.lookup), environment);
  const bool html_written =
      !options.html_path ||
      WriteReport(options.html_path, RenderHtmlReport(document, environment.lookup, html_extras),
                  environment);
  const bool baseline_written =
      !options.write_waivers_path ||
      WriteReport(options.write_waivers_path, RenderWaiverBaseline(report.results, options.plugin),
                  environment);
  if (!json_written || !junit_written || !html_written || !baseline_written) {
    return static_cast<int>(ExitCode::kInternalError);
  }
  return static_cast<int>(VerdictExitCode(report));
}

}  // namespace

int RunCli(int argc, const char* const* argv, const CliEnvironment& environment) {
  const ParsedCommandLine parsed =
      ParseCommandLine(argc, argv, environment.version, *environment.out, *environment.err);
  if (!parsed.options) return parsed.exit_code;
  try {
    CliOptions options = *parsed.options;
    options.profile =
        ResolveProfileOption(options.profile, environment.generations, *environment.err);
    return Run(options, environment);
  } catch (const UsageError& error) {
    *environment.err << kErrorPrefix << error.what() << '\n';
    return static_cast<int>(ExitCode::kUsageError);
  } catch (const std::exception& error) {
    *environment.err << "plugin_conformance: internal error: " << error.what() << '\n';
    return static_cast<int>(ExitCode::kInternalError);
  }
}

}  // namespace conformance
