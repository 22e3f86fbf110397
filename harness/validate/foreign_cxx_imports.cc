#include "validate/foreign_cxx_imports.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace conformance::validate_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance::validate {
namespace {

constexpr std::string_view kNamespacesFile = "specs/profiles/cxx_namespaces.txt";

// One namespace a line; '#' starts a comment.
const std::set<std::string, std::less<>>& TensorFlowNamespaces() {
  static const std::set<std::string, std::less<>> namespaces = [] {
    for (const auto& [path, text] : validate_data::EmbeddedFiles()) {
      if (path != kNamespacesFile) continue;
      std::set<std::string, std::less<>> names;
      std::istringstream lines{std::string(text)};
      for (std::string line; std::getline(lines, line);) {
        line = line.substr(0, line.find('#'));
        std::erase_if(line, [](unsigned char c) { return std::isspace(c); });
        if (!line.empty()) names.insert(line);
      }
      return names;
    }
    throw std::logic_error("no embedded " + std::string(kNamespacesFile));
  }();
  return namespaces;
}

}  // namespace

std::string ForeignCxxImports::Describe(std::size_t shown) const {
  std::string text = std::to_string(symbols.size()) +
                     " C++ symbol(s) in a namespace no TensorFlow library exports (";
  for (std::size_t i = 0; i < namespaces.size(); ++i) text += (i ? ", " : "") + namespaces[i];
  text += "), which no library the plugin loads exports either: ";
  for (std::size_t i = 0; i < symbols.size() && i < shown; ++i)
    text += (i ? "; " : "") + loader::Demangle(symbols[i]);
  if (symbols.size() > shown) text += "; ...";
  return text;
}

ForeignCxxImports FindForeignCxxImports(const loader::CxxImportAudit& cxx) {
  ForeignCxxImports foreign;
  std::set<std::string> namespaces;
  for (const std::string& symbol : cxx.symbols) {
    const std::string scope = loader::TopNamespace(symbol);
    if (scope.empty() || TensorFlowNamespaces().contains(scope)) continue;
    foreign.symbols.push_back(symbol);
    namespaces.insert(scope);
  }
  foreign.namespaces.assign(namespaces.begin(), namespaces.end());
  return foreign;
}

}  // namespace conformance::validate
