#include "cli/cli_options.h"

#include <CLI/CLI.hpp>

#include "cli/number_option.h"
#include "run/did_you_mean.h"
#include "run/exit_code.h"

namespace conformance {
namespace {

constexpr const char* kDescription =
    "Conformance suite for TensorFlow PluggableDevice plugins: loads PLUGIN as TensorFlow\n"
    "would, checks everything TensorFlow checks and more, and reports per check.";

// Exit codes and environment, shown under --help (kept in sync with run/exit_code.h).
constexpr const char* kFooter =
    R"(Options may come before or after PLUGIN. --tier, --co-load and --scenarios
take a comma-separated list and may repeat.

Exit codes:
  0  conformant (the plugin loaded, every selected tier ran a check that passed, and
     nothing is fail, crash, timeout, unexpected_pass or flaky)
  1  not conformant
  2  usage error (bad options or environment, a selection without checks, bad waivers,
     scenario, precision or --bench file, unusable report path)
  3  the plugin could not be loaded (a load.library.* check failed, or the file is
     missing)
  4  internal harness error (including a report that could not be written)
  5  no device: the plugin loaded and reported 0 devices, so the device tiers selected
     (runtime, kernels, models, stress) did not run; nothing else failed. On a runner
     without the hardware, gate on --tier load,graph,profiler (exit 0 when conformant
     there; every report still says the device tiers did not run)

Filter syntax (as gtest's --gtest_filter): POSITIVE[-NEGATIVE], each a ':'-separated
list of globs over check ids ('*' any run of characters, '?' one character). Write a
filter that starts with '-' as --filter=-PATTERN.

Report files: FILE '-' is standard output (the console report then goes to standard
error); a symlink is written through to its target; a device or FIFO is written
directly; a regular file is replaced atomically.

Environment:
  GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX  run shard INDEX of TOTAL (units round-robin)
  GTEST_SHARD_STATUS_FILE                created when set, as gtest does
  NO_COLOR                               plain console output even on a terminal)";

constexpr std::uint64_t kMaxTimeoutMs = std::uint64_t{24} * 3600 * 1000;

std::string ErrorLine(const std::string& message) {
  return "plugin_conformance: error: " + message + "\n";
}

// Every long and short option name, for did-you-mean suggestions.
std::vector<std::string> OptionNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

// Arguments CLI11 left over: unknown options, or a second positional.
std::string LeftoverProblem(const CLI::App& app, const std::vector<std::string>& leftover) {
  const std::string& first = leftover.front();
  if (first.size() > 1 && first[0] == '-') {
    const std::string name = first.substr(0, first.find('='));
    std::string message = "unknown option '" + name + "'";
    if (auto suggestion = ClosestMatch(name, OptionNames(app))) {
      message += " (did you mean '" + *suggestion + "'?)";
    }
    return message + "; see --help";
  }
  return "unexpected argument '" + first + "': only one PLUGIN can be tested per run";
}

// Turns the numeric options' text into numbers; an error message, or empty.
std::string ReadNumbers(const std::optional<std::string>& timeout,
                        const std::optional<std::string>& seed,
                        const std::optional<std::string>& jobs,
                        const std::optional<std::string>& repeat, CliOptions& options) {
  if (timeout) {
    const NumberParse parsed = ParseDecimal(*timeout, 1, kMaxTimeoutMs, "milliseconds");
    if (!parsed.value) return "--timeout: " + parsed.problem;
    options.timeout_ms = static_cast<std::int64_t>(*parsed.value);
    options.timeout_given = true;
  }
  if (seed && *seed == "random") {
    options.seed_random = true;
  } else if (seed) {
    const NumberParse parsed = ParseDecimal(*seed, 0, UINT64_MAX);
    if (!parsed.value) return "--seed: " + parsed.problem;
    options.seed = *parsed.value;
  }
  if (jobs) {
    const NumberParse parsed = ParseDecimal(*jobs, 1, 1024);
    if (!parsed.value) return "--jobs: " + parsed.problem;
    options.jobs = static_cast<int>(*parsed.value);
  }
  if (repeat) {
    const NumberParse parsed = ParseDecimal(*repeat, 1, 1000);
    if (!parsed.value) return "--repeat: " + parsed.problem;
    options.repeat = static_cast<int>(*parsed.value);
  }
  return "";
}

// A list-valued option: one value per occurrence (so it never swallows PLUGIN), split at
// commas, repeatable.
CLI::Option* AddList(CLI::App& app, const std::string& name, std::vector<std::string>& values,
                     const std::string& help) {
  return app.add_option(name, values, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, const char* const* argv, std::string_view version,
                                   std::ostream& out, std::ostream& err) {
  CliOptions options;
  std::optional<std::string> timeout;
  std::optional<std::string> seed;
  std::optional<std::string> jobs;
  std::optional<std::string> repeat;
  CLI::App app{kDescription, "plugin_conformance"};
  app.footer(kFooter);
  app.allow_extras();  // reported by LeftoverProblem, with a suggestion
  app.set_version_flag("--version", "plugin_conformance " + std::string(version));
  app.add_option("PLUGIN", options.plugin, "Plugin shared library to test")->type_name("");
  app.add_flag("--list", options.list,
               "Print the selected check ids, one per line (with -v: origin and rule; with "
               "--json FILE: the catalogue as JSON), and exit; needs no PLUGIN");
  app.add_option("--filter", options.filter,
                 "Select check ids (gtest syntax, see below; default: *)")
      ->type_name("PATTERNS");
  AddList(app, "--tier", options.tiers,
          "Tier to run: load, runtime, kernels, models, graph, profiler, stress, all (default: "
          "every tier with checks but stress); naming a tier without checks is an error")
      ->type_name("TIER");
  app.add_option("--timeout", timeout, "Time limit per test unit, in milliseconds (default: 10000)")
      ->type_name("MS");
  app.add_option("--seed", seed,
                 "Seed of every random input, 0 to 2^64-1, or 'random' for one derived from the "
                 "clock (default: " +
                     std::to_string(kDefaultSeed) +
                     ", so a run repeats the last one's inputs; always printed)")
      ->type_name("N");
  app.add_option("--jobs", jobs,
                 "Test units run in parallel, 1 to 1024 (default: twice the number of CPUs; "
                 "1 without isolation)")
      ->type_name("N");
  app.add_option("--json", options.json_path, "Write the JSON report to FILE ('-': stdout)")
      ->type_name("FILE");
  app.add_option("--junit", options.junit_path, "Write a JUnit XML report to FILE ('-': stdout)")
      ->type_name("FILE");
  app.add_option("--html", options.html_path,
                 "Write a self-contained HTML report to FILE ('-': stdout)")
      ->type_name("FILE");
  app.add_option("--bench", options.bench_path,
                 "Add the copy bandwidth chart of this plugin_bench --benchmark_format=json "
                 "output to the HTML report")
      ->type_name("FILE");
  app.add_option("--waivers", options.waivers_path,
                 "YAML list of expected failures: {id: GLOB, reason: TEXT}")
      ->type_name("FILE");
  app.add_option("--write-waivers", options.write_waivers_path,
                 "Write this run's failures to FILE as a waivers file, a placeholder reason "
                 "each (a new plugin's baseline; waived ones keep their reason)")
      ->type_name("FILE");
  app.add_option("--profile", options.profile,
                 "TensorFlow generation to emulate: a profile name, or a release such as 2.17 "
                 "or 2.17.1, which picks the profile standing for it (default: newest; an "
                 "unknown name or release is an error that lists the known ones)")
      ->type_name("NAME|RELEASE");
  AddList(app, "--co-load", options.co_load,
          "Load this plugin first in the same process (repeatable), to find duplicate "
          "registrations")
      ->type_name("PLUGIN");
  AddList(app, "--scenarios", options.scenario_dirs,
          "Add the YAML runtime scenarios in every *.yaml under DIR (repeatable); all files "
          "are checked before anything runs (format: specs/scenarios/README.md)")
      ->type_name("DIR");
  app.add_option("--precision", options.precision_path,
                 "YAML list of declared per-op precision: {op, dtype, [scenario], rtol/atol/ulp, "
                 "reason}; "
                 "the op's case checks of that dtype accept it (specs/scenarios/kernels.md)")
      ->type_name("FILE");
  app.add_option("--repeat", repeat,
                 "Run every unit N times, 1 to 1000; a check whose outcome varies is flaky "
                 "(default: 1)")
      ->type_name("N");
  app.add_flag("--no-isolation", options.no_isolation,
               "Run units in this process, one at a time (for debuggers): a crash of the "
               "plugin ends the run");
  app.add_flag("--force-runtime", options.force_runtime,
               "Run the runtime, stress, kernel and model tiers even when TensorFlow would refuse "
               "the plugin (default: they are skipped with TensorFlow's reason)");
  app.add_flag("--matrix", options.matrix,
               "Compatibility matrix: the load and runtime tiers under every TensorFlow "
               "generation (--profile names), one row each; the exit code is that of the "
               "generation the plugin was built for (see README)");
  app.add_option("--tensorflow", options.tensorflow,
                 "Also load the plugin into the installed TensorFlow (DIR: its `tensorflow` "
                 "package folder; auto: the one `python3 -c 'import tensorflow'` finds), in a "
                 "process of its own, and confirm the verdict; its release picks the profile "
                 "unless --profile is given. Its checks are listed, selected, sharded and waived "
                 "like any other; --timeout is the limit of each case there")
      ->type_name("DIR|auto");
  app.add_flag("-v,--verbose", options.verbose, "List passing checks and progress too");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return ParsedCommandLine{std::nullopt, app.exit(help, out, err)};
  } catch (const CLI::CallForAllHelp& help) {
    return ParsedCommandLine{std::nullopt, app.exit(help, out, err)};
  } catch (const CLI::CallForVersion& version_request) {
    return ParsedCommandLine{std::nullopt, app.exit(version_request, out, err)};
  } catch (const CLI::ParseError& error) {
    err << ErrorLine(std::string(error.what()) + "; see --help");
    return ParsedCommandLine{std::nullopt, static_cast<int>(ExitCode::kUsageError)};
  }
  options.profile_given = app.count("--profile") > 0;
  std::string problem;
  if (const std::vector<std::string> leftover = app.remaining(); !leftover.empty()) {
    problem = LeftoverProblem(app, leftover);
  } else {
    problem = ReadNumbers(timeout, seed, jobs, repeat, options);
  }
  if (!problem.empty()) {
    err << ErrorLine(problem);
    return ParsedCommandLine{std::nullopt, static_cast<int>(ExitCode::kUsageError)};
  }
  return ParsedCommandLine{options, 0};
}

}  // namespace conformance
