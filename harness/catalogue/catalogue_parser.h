#pragma once
// Parses catalogue YAML text into entries, expanding `each` lists. Kept apart from the
// embedded data so tests can feed it malformed input.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/catalogue.h"

namespace conformance {

class CatalogueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `file` only labels error messages ("specs/checks/load.yaml:12:3: ...").
std::vector<CheckEntry> ParseCatalogue(std::string_view file, std::string_view yaml_text);

}  // namespace conformance
