#pragma once
// The command line of plugin_bench: our own arguments (PLUGIN, --reference, --no-reference)
// mixed with Google Benchmark's --benchmark_* flags, which Google Benchmark parses itself.
// Parsing only; main.cc decides what the options mean.
#include <optional>
#include <ostream>
#include <string>

namespace conformance::bench {

struct BenchOptions {
  std::string candidate;             // PLUGIN.so (positional)
  std::string reference;             // --reference REF.so; empty: the bundled reference plugin
  bool with_reference = true;        // --no-reference turns the side-by-side run off
  int family_timeout_seconds = 600;  // --family-timeout: a family's child is killed after it
  std::string plot_path;             // --plot FILE.svg: the copy bandwidth chart; empty: none
};

struct ParsedBenchCommandLine {
  std::optional<BenchOptions> options;  // empty: stop with exit_code (help or usage error)
  int exit_code = 0;
};

// Call after benchmark::Initialize, which removes the --benchmark_* flags it knows from
// argv. Whatever is left is ours; an unknown flag is a usage error (exit code 2), --help
// prints usage to `out` (exit code 0).
ParsedBenchCommandLine ParseBenchCommandLine(int argc, const char* const* argv, std::ostream& out,
                                             std::ostream& err);

// True when argv asks for help; checked before benchmark::Initialize, which would otherwise
// print only Google Benchmark's own usage.
bool WantsHelp(int argc, const char* const* argv);

// A Google Benchmark flag plugin_bench cannot honour, with the reason and what to use instead
// (checked before benchmark::Initialize consumes the flags).
std::optional<std::string> UnsupportedBenchmarkFlag(int argc, const char* const* argv);
void PrintUsage(std::ostream& out);

}  // namespace conformance::bench
