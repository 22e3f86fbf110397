#include "cli/cli_options.h"

#include <CLI/CLI.hpp>

#include "run/exit_code.h"

namespace conformance {
namespace {

constexpr const char* kDescription =
    "Conformance suite for TensorFlow PluggableDevice plugins: loads PLUGIN as TensorFlow\n"
    "would, checks everything TensorFlow checks and more, and reports per check.";

// Exit codes and environment, shown under --help (kept in sync with run/exit_code.h).
constexpr const char* kFooter = R"(Exit codes:
  0  conformant (nothing is fail, crash, timeout or unexpected_pass)
  1  not conformant
  2  usage error (bad options or environment, bad waivers or scenario file, unusable
     report path)
  3  the plugin could not be loaded (a load.library.* check failed)
  4  internal harness error (including a report that could not be written)

Filter syntax (as gtest's --gtest_filter): POSITIVE[-NEGATIVE], each a ':'-separated
list of globs over check ids ('*' any run of characters, '?' one character). Write a
filter that starts with '-' as --filter=-PATTERN.

Environment:
  GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX  run shard INDEX of TOTAL (units round-robin)
  GTEST_SHARD_STATUS_FILE                created when set, as gtest does
  NO_COLOR                               plain console output even on a terminal)";

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, const char* const* argv, std::string_view version,
                                   std::ostream& out, std::ostream& err) {
  CliOptions options;
  CLI::App app{kDescription, "plugin_conformance"};
  app.footer(kFooter);
  app.set_version_flag("--version", "plugin_conformance " + std::string(version));
  app.add_option("PLUGIN", options.plugin, "Plugin shared library to test")->type_name("");
  app.add_flag("--list", options.list,
               "Print the selected check ids, one per line (with -v: origin and rule), and "
               "exit; needs no PLUGIN");
  app.add_option("--filter", options.filter,
                 "Select check ids (gtest syntax, see below; default: *)")
      ->type_name("PATTERNS");
  app.add_option("--tier", options.tiers,
                 "Tier to run: load, runtime, kernels, graph, profiler, stress, all; "
                 "repeatable or comma-separated (default: all implemented tiers but stress)")
      ->delimiter(',')
      ->type_name("TIER");
  CLI::Option* timeout = app.add_option("--timeout", options.timeout_ms,
                 "Time limit per test unit, in milliseconds (default: 10000)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{24} * 3600 * 1000).description(""))
      ->type_name("MS");
  app.add_option_function<std::uint64_t>(
         "--seed", [&](const std::uint64_t& seed) { options.seed = seed; },
         "Seed of every random input (default: derived from the clock; always printed)")
      ->type_name("N");
  app.add_option_function<int>(
         "--jobs", [&](const int& jobs) { options.jobs = jobs; },
         "Test units run in parallel, 1 to 1024 (default: twice the number of CPUs; 1 "
         "without isolation)")
      ->check(CLI::Range(1, 1024).description(""))
      ->type_name("N");
  app.add_option("--json", options.json_path, "Write the JSON report to FILE")->type_name("FILE");
  app.add_option("--junit", options.junit_path, "Write a JUnit XML report to FILE")
      ->type_name("FILE");
  app.add_option("--waivers", options.waivers_path,
                 "YAML list of expected failures: {id: GLOB, reason: TEXT}")
      ->type_name("FILE");
  app.add_option("--profile", options.profile,
                 "TensorFlow generation to emulate (default: newest)")
      ->type_name("NAME");
  app.add_option("--co-load", options.co_load,
                 "Load this plugin first in the same process (repeatable), to find "
                 "duplicate registrations")
      ->type_name("PLUGIN");
  app.add_option("--scenarios", options.scenario_dirs,
                 "Add the YAML runtime scenarios in every *.yaml under DIR (repeatable); all "
                 "files are checked before anything runs (format: specs/scenarios/README.md)")
      ->type_name("DIR");
  app.add_flag("--no-isolation", options.no_isolation,
               "Run units in this process, one at a time (for debuggers): a crash of the "
               "plugin ends the run");
  app.add_flag("-v,--verbose", options.verbose, "List passing checks and progress too");

  try {
    app.parse(argc, argv);
    options.timeout_given = timeout->count() > 0;
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error, out, err);
    return ParsedCommandLine{std::nullopt,
                             code == 0 ? 0 : static_cast<int>(ExitCode::kUsageError)};
  }
  return ParsedCommandLine{options, 0};
}

}  // namespace conformance
