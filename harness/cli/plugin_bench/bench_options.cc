#include "bench_options.h"

#include <charconv>
#include <string_view>

namespace conformance::bench {

void PrintUsage(std::ostream& out) {
  out << "Usage: plugin_bench PLUGIN.so [--reference REF.so | --no-reference] [--family-timeout "
         "S]\n"
         "                    [--benchmark_* flags]\n"
         "\n"
         "Runs the same Google Benchmark set on PLUGIN.so and on a reference plugin (by default\n"
         "the bundled reference plugin) in one process, interleaved, then prints a comparison\n"
         "table: candidate/reference per benchmark, and each copy's bandwidth as a ratio to\n"
         "plain host memcpy measured in the same run.\n"
         "\n"
         "  --reference REF.so   compare against REF.so instead of the bundled reference plugin\n"
         "  --no-reference       benchmark PLUGIN.so only\n"
         "  --family-timeout S   end a benchmark family that runs longer than S seconds\n"
         "                       (default 600); each family runs in its own child process\n"
         "  --plot FILE.svg      also draw copy bandwidth against copy size (candidate,\n"
         "                       reference, plain memcpy) as an SVG chart, the chart of\n"
         "                       plugin_conformance --html --bench ('-': stdout)\n"
         "  --help               this text\n"
         "\n"
         "Google Benchmark flags work as usual, e.g. --benchmark_filter='memcpy/.*/1MiB'\n"
         "--benchmark_repetitions=9 --benchmark_min_time=0.2 --benchmark_format=json.\n"
         "With repetitions, the table uses medians.\n"
         "\n"
         "Exit codes: 0 ran, 1 a benchmark family crashed or timed out (reported; the other\n"
         "families still ran), 2 usage error, 3 a plugin could not be opened, 4 the --plot\n"
         "file could not be written.\n";
}

bool WantsHelp(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") return true;
  }
  return false;
}

std::optional<std::string> UnsupportedBenchmarkFlag(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--benchmark_out=") || arg.starts_with("--benchmark_out_format=")) {
      return std::string(arg.substr(0, arg.find('='))) +
             " is not supported: each benchmark family runs in its own child process, so no "
             "single Google Benchmark run could write the file; use --benchmark_format=json "
             "and redirect standard output (the comparison table then goes to stderr)";
    }
  }
  return std::nullopt;
}

ParsedBenchCommandLine ParseBenchCommandLine(int argc, const char* const* argv, std::ostream& out,
                                             std::ostream& err) {
  BenchOptions options;
  auto usage_error = [&](std::string_view why) {
    err << "plugin_bench: " << why << "\n(run plugin_bench --help for usage)\n";
    return ParsedBenchCommandLine{std::nullopt, 2};
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintUsage(out);
      return {std::nullopt, 0};
    }
    if (arg == "--no-reference") {
      options.with_reference = false;
    } else if (arg == "--reference") {
      if (i + 1 >= argc) return usage_error("--reference needs a path");
      options.reference = argv[++i];
    } else if (arg.starts_with("--reference=")) {
      options.reference = std::string(arg.substr(std::string_view("--reference=").size()));
    } else if (arg == "--family-timeout" || arg.starts_with("--family-timeout=")) {
      std::string value;
      if (arg == "--family-timeout") {
        if (i + 1 >= argc) return usage_error("--family-timeout needs a number of seconds");
        value = argv[++i];
      } else {
        value = std::string(arg.substr(std::string_view("--family-timeout=").size()));
      }
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(),
                                                options.family_timeout_seconds);
      if (error != std::errc() || end != value.data() + value.size() ||
          options.family_timeout_seconds <= 0) {
        return usage_error("--family-timeout needs a positive number of seconds, not '" + value +
                           "'");
      }
    } else if (arg == "--plot" || arg.starts_with("--plot=")) {
      if (arg == "--plot") {
        if (i + 1 >= argc) return usage_error("--plot needs a file name");
        options.plot_path = argv[++i];
      } else {
        options.plot_path = std::string(arg.substr(std::string_view("--plot=").size()));
      }
      if (options.plot_path.empty()) return usage_error("--plot needs a file name");
    } else if (arg.starts_with("-")) {
      // Google Benchmark has already taken the flags it knows; this one is nobody's.
      return usage_error(std::string("unknown option ") + std::string(arg));
    } else if (options.candidate.empty()) {
      options.candidate = std::string(arg);
    } else {
      return usage_error(std::string("more than one PLUGIN given: ") + std::string(arg));
    }
  }
  if (options.candidate.empty()) return usage_error("missing PLUGIN");
  if (!options.with_reference && !options.reference.empty()) {
    return usage_error("--reference and --no-reference contradict each other");
  }
  return {options, 0};
}

}  // namespace conformance::bench
