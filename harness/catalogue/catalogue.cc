#include "catalogue/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogue/catalogue_parser.h"

namespace conformance::catalogue_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance {
namespace {

std::vector<CheckEntry> LoadEmbeddedCatalogue() {
  std::vector<CheckEntry> all;
  try {
    for (const auto& [file, text] : catalogue_data::EmbeddedFiles()) {
      std::vector<CheckEntry> entries = ParseCatalogue(file, text);
      all.insert(all.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
  } catch (const CatalogueError& error) {
    // The catalogue is compiled in: a malformed one is a build defect, not a user error.
    std::fprintf(stderr, "plugin_conformance: internal error in the check catalogue: %s\n", error.what());
    std::abort();
  }
  std::sort(all.begin(), all.end(), [](const CheckEntry& a, const CheckEntry& b) { return a.id < b.id; });
  return all;
}

}  // namespace

const std::vector<CheckEntry>& Catalogue() {
  static const std::vector<CheckEntry> catalogue = LoadEmbeddedCatalogue();
  return catalogue;
}

const CheckEntry* FindCheck(std::string_view id) {
  const auto& entries = Catalogue();
  auto it = std::lower_bound(entries.begin(), entries.end(), id,
                             [](const CheckEntry& entry, std::string_view key) { return entry.id < key; });
  return (it != entries.end() && it->id == id) ? &*it : nullptr;
}

}  // namespace conformance
