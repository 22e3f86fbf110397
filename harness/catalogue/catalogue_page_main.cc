// Renders the compiled-in check catalogue as one Markdown page, grouped by tier.
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "catalogue/catalogue.h"

namespace {

constexpr const char* kUsage =
    "usage: check_catalogue_page OUTPUT.md\n"
    "Renders the compiled-in check catalogue (specs/checks/*.yaml) as one Markdown page.\n";

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "check_catalogue_page: error: unknown option '" << arg << "'\n" << kUsage;
      return 2;
    }
  }
  if (argc != 2) {
    std::cerr << "check_catalogue_page: error: "
              << (argc < 2 ? "missing OUTPUT.md" : "more than one OUTPUT.md") << '\n'
              << kUsage;
    return 2;
  }
  std::ofstream out(argv[1]);
  out << "# plugin_conformance check catalogue\n\n"
      << "Generated from specs/checks/*.yaml. Origin `tensorflow`: TensorFlow's core enforces the "
         "rule "
         "with the quoted code and message. Origin `stricter`: our own check; it fails only where "
         "its "
         "**Consequence** names what a TensorFlow user would hit (wrong data, crash, hang, leak, "
         "indistinct devices, unusable), and only warns where the consequence is `none`.\n";
  std::string tier;
  for (const auto& entry : conformance::Catalogue()) {
    if (entry.tier != tier) {
      tier = entry.tier;
      out << "\n## Tier `" << tier << "`\n";
    }
    out << "\n### `" << entry.id << "` (" << conformance::ToString(entry.origin) << ")\n\n"
        << "- **Rule:** " << entry.rule << "\n"
        << "- **TensorFlow:** " << entry.tensorflow << "\n"
        << "- **Fix:** " << entry.fix << "\n";
    if (!entry.consequence.empty()) out << "- **Consequence:** " << entry.consequence << "\n";
  }
  return out.good() ? 0 : 1;
}
