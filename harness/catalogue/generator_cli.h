#pragma once
// The command line shared by the tools that generate checked-in files (scenario_catalogue,
// kernel_catalogue, check_catalogue_page): `--help` prints the usage, an unknown option is
// rejected, and both are decided before any argument is taken for the output path, so an
// option never becomes a file name.
#include <optional>
#include <string>

namespace conformance {

struct GeneratorCommand {
  const char* tool;   // the program name used in messages
  const char* usage;  // printed by --help and after a usage error
  bool output_required = false;
};

// Returns the exit code when the tool must stop now (0 after --help, 2 on a usage error);
// otherwise stores the output path (empty: standard output) and returns nullopt.
std::optional<int> ParseGeneratorArgs(const GeneratorCommand& command, int argc, char** argv,
                                      std::string& output);

// Writes the generated text to `output`, or to standard output when it is empty. Returns the
// process exit code (1 when the file could not be written).
int WriteGenerated(const GeneratorCommand& command, const std::string& text,
                   const std::string& output);

}  // namespace conformance
