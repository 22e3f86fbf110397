// Renders the compiled-in check catalogue as one Markdown page, grouped by tier.
#include <cstdio>
#include <fstream>
#include <string>

#include "catalogue/catalogue.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.md\n", argv[0]);
    return 2;
  }
  std::ofstream out(argv[1]);
  out << "# plugin_conformance check catalogue\n\n"
      << "Generated from specs/checks/*.yaml. Origin `tensorflow`: TensorFlow's core enforces the rule "
         "with the quoted code and message. Origin `stricter`: our own check; it fails only where its "
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
