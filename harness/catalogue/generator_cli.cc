#include "catalogue/generator_cli.h"

#include <fstream>
#include <iostream>
#include <string_view>

namespace conformance {

std::optional<int> ParseGeneratorArgs(const GeneratorCommand& command, int argc, char** argv,
                                      std::string& output) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << command.usage;
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << command.tool << ": error: unknown option '" << arg << "'\n" << command.usage;
      return 2;
    }
  }
  if (argc > 2) {
    std::cerr << command.tool << ": error: more than one output path given\n" << command.usage;
    return 2;
  }
  if (argc < 2 && command.output_required) {
    std::cerr << command.tool << ": error: missing the output path\n" << command.usage;
    return 2;
  }
  output = argc == 2 ? argv[1] : "";
  return std::nullopt;
}

int WriteGenerated(const GeneratorCommand& command, const std::string& text,
                   const std::string& output) {
  if (output.empty()) {
    std::cout << text;
    return std::cout.good() ? 0 : 1;
  }
  std::ofstream file(output, std::ios::binary);
  file << text;
  if (!file) {
    std::cerr << command.tool << ": error: cannot write '" << output << "'\n";
    return 1;
  }
  return 0;
}

}  // namespace conformance
