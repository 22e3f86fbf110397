// plugin_conformance PLUGIN [options]: see `plugin_conformance --help` and run_cli.h.
#include <unistd.h>

#include <iostream>

#include "catalogue/catalogue.h"
#include "cli/run_cli.h"
#include "conformance/suite.h"
#include "isolate/unit_runner.h"
#include "report/terminal_colour.h"

int main(int argc, char** argv) {
  using namespace conformance;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const CliEnvironment environment{
      .build_suite = [](const RunSettings& settings) { return BuildSuite(settings); },
      .run_units = RunUnits,
      .lookup = [](std::string_view id) { return FindCheck(id); },
      .env = ProcessEnvironment(),
      .out = &std::cout,
      .err = &std::cerr,
      .colour = ColourWantedFor(STDOUT_FILENO),
      .version = PLUGIN_CONFORMANCE_VERSION,
      .cpu_count = cpus > 0 ? static_cast<int>(cpus) : 1,
  };
  return RunCli(argc, argv, environment);
}
