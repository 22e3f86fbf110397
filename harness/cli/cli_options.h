#pragma once
// The command line of plugin_conformance, parsed with CLI11 into plain options. Parsing
// only; what the options mean is decided in run_cli.cc. Every option may come before or
// after PLUGIN; list-valued options (--tier, --co-load, --scenarios) take one value per
// occurrence, itself a comma-separated list, and may repeat.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "isolate/default_timeout.h"

namespace conformance {

// The seed of a run without --seed: fixed, so two runs of a gate feed every check the same
// inputs (each check derives its own from it) and give the same verdict; --seed random explores.
inline constexpr std::uint64_t kDefaultSeed = 1;

struct CliOptions {
  std::string plugin;  // positional PLUGIN; empty when not given
  bool list = false;
  std::string filter = "*";
  std::vector<std::string> tiers;                   // as given; empty: default tiers
  std::int64_t timeout_ms = kDefaultUnitTimeoutMs;  // per unit
  bool timeout_given = false;                       // --timeout on the command line
  std::optional<std::uint64_t> seed;                // empty: kDefaultSeed, or random
  bool seed_random = false;                         // --seed random: derived from the clock
  std::optional<int> jobs;                          // empty: twice the number of CPUs
  std::optional<std::string> json_path;  // given (possibly empty, which is an error) or not
  std::optional<std::string> junit_path;
  std::optional<std::string> html_path;
  std::string bench_path;  // --bench: plugin_bench JSON for the HTML report's chart
  std::string waivers_path;
  std::optional<std::string> write_waivers_path;  // --write-waivers: the failures as a baseline
  std::string profile = "newest";
  bool profile_given = false;  // --profile on the command line
  std::vector<std::string> co_load;
  std::vector<std::string> scenario_dirs;  // --scenarios DIR, repeatable
  std::string precision_path;              // --precision FILE: declared per-op precision
  int repeat = 1;                          // --repeat N: every unit N times
  bool no_isolation = false;
  bool force_runtime = false;
  bool matrix = false;     // --matrix: every profile, one row each (harness/matrix)
  std::string tensorflow;  // --tensorflow DIR|auto: confirm in the installed TensorFlow
  bool verbose = false;
};

struct ParsedCommandLine {
  std::optional<CliOptions> options;  // empty: stop with exit_code (help, version, error)
  int exit_code = 0;
};

// --help and --version print to `out` and yield exit code 0; parse errors print
// "plugin_conformance: error: ..." to `err` and yield 2.
ParsedCommandLine ParseCommandLine(int argc, const char* const* argv, std::string_view version,
                                   std::ostream& out, std::ostream& err);

}  // namespace conformance
