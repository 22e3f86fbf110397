#include "display_reporter.h"

#include <unistd.h>

#include <optional>
#include <string>
#include <string_view>

namespace conformance::bench {
namespace {

// The value of the last "--name=value" in argv (Google Benchmark also lets the last win).
std::optional<std::string_view> FlagValue(int argc, const char* const* argv,
                                          std::string_view name) {
  std::optional<std::string_view> value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() > name.size() + 3 && arg.starts_with("--") &&
        arg.substr(2, name.size()) == name && arg[2 + name.size()] == '=') {
      value = arg.substr(3 + name.size());
    }
  }
  return value;
}

bool IsTrue(std::string_view value) {
  return value == "true" || value == "yes" || value == "1" || value == "t" || value == "y";
}

bool IsFalse(std::string_view value) {
  return value == "false" || value == "no" || value == "0" || value == "f" || value == "n";
}

}  // namespace

DisplayChoice ChooseDisplayReporter(int argc, const char* const* argv) {
  const std::string_view format = FlagValue(argc, argv, "benchmark_format").value_or("console");
  if (format == "json") return {std::make_unique<benchmark::JSONReporter>(), false, ""};
  // CSV is deprecated in Google Benchmark (and its reporter class warns when used).
  if (format != "console")
    return {nullptr, true, "plugin_bench supports --benchmark_format=console|json"};
  // "auto" (the default) means colour on a terminal, as in Google Benchmark.
  const std::string_view colour = FlagValue(argc, argv, "benchmark_color").value_or("auto");
  const bool use_colour = IsTrue(colour) || (!IsFalse(colour) && isatty(STDOUT_FILENO) != 0);
  const bool tabular =
      IsTrue(FlagValue(argc, argv, "benchmark_counters_tabular").value_or("false"));
  int options = benchmark::ConsoleReporter::OO_None;
  if (use_colour) options |= benchmark::ConsoleReporter::OO_Color;
  if (tabular) options |= benchmark::ConsoleReporter::OO_Tabular;
  return {std::make_unique<benchmark::ConsoleReporter>(
              static_cast<benchmark::ConsoleReporter::OutputOptions>(options)),
          true, ""};
}

}  // namespace conformance::bench
