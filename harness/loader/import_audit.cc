#include "loader/import_audit.h"

#include <algorithm>

namespace conformance::loader {

bool HasTensorFlowPrefix(std::string_view name, std::span<const std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view prefix) {
    return name.substr(0, prefix.size()) == prefix;
  });
}

bool IsAuditedTensorFlowImport(std::string_view name) {
  return HasTensorFlowPrefix(name) || name.starts_with(kHostedCxxPrefix);
}

ImportAudit AuditImports(const ElfFile& plugin, const SymbolNameSet& core_exports,
                         std::span<const std::string_view> prefixes) {
  ImportAudit audit;
  for (const ElfSymbol& symbol : plugin.undefined_symbols) {
    if (!HasTensorFlowPrefix(symbol.name, prefixes) && !symbol.name.starts_with(kHostedCxxPrefix))
      continue;
    if (core_exports.contains(symbol.name)) {
      audit.provided.push_back(symbol);
    } else if (symbol.weak()) {
      audit.missing_weak.push_back(symbol);
    } else {
      audit.missing.push_back(symbol);
    }
  }
  const auto by_name = [](const ElfSymbol& a, const ElfSymbol& b) { return a.name < b.name; };
  for (auto* list : {&audit.missing, &audit.missing_weak, &audit.provided}) {
    std::sort(list->begin(), list->end(), by_name);
  }
  return audit;
}

std::string FirstUnboundImport(const ImportAudit& audit, const ElfFile& library) {
  const auto glibc_text = [](const ElfSymbol& symbol) {
    return symbol.version.empty() ? symbol.name : symbol.name + ", version " + symbol.version;
  };
  for (const std::string& name : library.relocation_order) {
    for (const ElfSymbol& symbol : audit.missing) {
      if (symbol.name == name) return glibc_text(symbol);
    }
  }
  return glibc_text(audit.missing.front());
}

std::vector<std::string> ImportAudit::Describe() const {
  std::vector<std::string> lines;
  for (const ElfSymbol& symbol : missing) {
    lines.push_back("missing " + symbol.name + " (" + std::string(ToString(symbol.type)) +
                    ", strong): dlopen with RTLD_NOW fails with 'undefined symbol: " + symbol.name +
                    "'");
  }
  for (const ElfSymbol& symbol : missing_weak) {
    lines.push_back("note: weak import " + symbol.name +
                    " is not provided by the core; it resolves to NULL");
  }
  return lines;
}

}  // namespace conformance::loader
