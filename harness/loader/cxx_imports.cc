#include "loader/cxx_imports.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <memory>

namespace conformance::loader {
namespace {

bool IsMangled(std::string_view name) { return name.starts_with("_Z"); }

// Every symbol exported by the libraries the plugin depends on, directly or through their own
// dependencies, except the ones the harness provides under TensorFlow's sonames. Only the
// dynamic symbol tables are read.
SymbolNameSet DependencyExports(const ElfFile& plugin, const DependencySearchOptions& search) {
  SymbolNameSet exports;
  std::set<std::filesystem::path> visited;
  std::deque<const ElfFile*> pending = {&plugin};
  std::vector<std::unique_ptr<ElfFile>> read;  // keeps the queued files alive
  while (!pending.empty()) {
    const ElfFile* library = pending.front();
    pending.pop_front();
    for (const NeededLibrary& needed : ResolveDependencies(*library, search).needed) {
      if (!needed.found || needed.resolved.empty() || search.harness_sonames.contains(needed.name))
        continue;
      if (!visited.insert(needed.resolved).second) continue;
      auto elf = ReadElfFile(needed.resolved);
      if (!elf.ok()) continue;
      for (const ElfSymbol& symbol : elf.value().exported_symbols) exports.insert(symbol.name);
      read.push_back(std::make_unique<ElfFile>(std::move(elf.value())));
      pending.push_back(read.back().get());
    }
  }
  return exports;
}

}  // namespace

std::string Demangle(std::string_view mangled) {
  const std::string name(mangled);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

std::string TopNamespace(std::string_view mangled) {
  const std::string name = Demangle(mangled);
  const std::size_t scope = name.find("::");
  if (scope == std::string::npos) return "";
  const std::size_t paren = name.find('(');
  if (paren < scope) return "";  // a function outside namespaces, taking a namespaced type
  // Past a return type or a prefix such as "vtable for ": the word just before the "::".
  const std::size_t space = name.rfind(' ', scope);
  std::string word = name.substr(space == std::string::npos ? 0 : space + 1,
                                 scope - (space == std::string::npos ? 0 : space + 1));
  if (word.empty() || word.find_first_of("<(") != std::string::npos) return "";
  return word;
}

std::string CxxImportAudit::Describe(std::size_t shown) const {
  std::string libraries;
  for (const auto& library : tensorflow_libraries)
    libraries += (libraries.empty() ? "" : " or ") + library;
  std::string text = std::to_string(symbols.size()) + " TensorFlow C++ symbol(s) expected from " +
                     libraries + ", e.g. ";
  for (std::size_t i = 0; i < symbols.size() && i < shown; ++i)
    text += (i == 0 ? "" : "; ") + Demangle(symbols[i]);
  return text;
}

CxxImportAudit AuditCxxImports(const ElfFile& plugin, const SymbolNameSet& core_exports,
                               const std::set<std::string, std::less<>>& tensorflow_sonames,
                               const DependencySearchOptions& search) {
  CxxImportAudit audit;
  for (const auto& needed : plugin.needed) {
    if (tensorflow_sonames.contains(needed)) audit.tensorflow_libraries.push_back(needed);
  }
  if (audit.tensorflow_libraries.empty()) return audit;
  const auto has_cxx_import =
      std::any_of(plugin.undefined_symbols.begin(), plugin.undefined_symbols.end(),
                  [](const ElfSymbol& symbol) { return !symbol.weak() && IsMangled(symbol.name); });
  if (!has_cxx_import) return audit;
  const SymbolNameSet elsewhere = DependencyExports(plugin, search);
  for (const ElfSymbol& symbol : plugin.undefined_symbols) {
    if (symbol.weak() || !IsMangled(symbol.name)) continue;
    if (core_exports.contains(symbol.name) || elsewhere.contains(symbol.name)) continue;
    audit.symbols.push_back(symbol.name);
  }
  std::sort(audit.symbols.begin(), audit.symbols.end());
  return audit;
}

}  // namespace conformance::loader
