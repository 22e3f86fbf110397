// Renders the compiled-in check catalogue as one Markdown page, grouped by tier.
#include <sstream>
#include <string>

#include "catalogue/catalogue.h"
#include "catalogue/generator_cli.h"

namespace {

constexpr const char* kUsage =
    "usage: check_catalogue_page OUTPUT.md\n"
    "Renders the compiled-in check catalogue (specs/checks/*.yaml) as one Markdown page.\n";

}  // namespace

int main(int argc, char** argv) {
  const conformance::GeneratorCommand command{"check_catalogue_page", kUsage,
                                              /*output_required=*/true};
  std::string output;
  if (auto exit_code = conformance::ParseGeneratorArgs(command, argc, argv, output)) {
    return *exit_code;
  }
  std::ostringstream out;
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
  return conformance::WriteGenerated(command, out.str(), output);
}
