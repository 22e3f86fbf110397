#pragma once
// Which TensorFlow C API symbols a plugin imports that the core does not provide. With
// RTLD_NOW, dlopen stops at the first unresolved reference and names only that one; the audit
// lists all of them up front so a vendor fixes them in one round.
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loader/elf_file.h"

namespace conformance::loader {

// Prefixes of the symbols TensorFlow's C APIs define (TF_ core, SE_ stream executor, TP_
// profiler/grappler, TFE_ eager, TFNPD_ next pluggable device).
inline constexpr std::array<std::string_view, 5> kTensorFlowSymbolPrefixes = {"TF_", "SE_", "TP_",
                                                                              "TFE_", "TFNPD_"};

bool HasTensorFlowPrefix(std::string_view name,
                         std::span<const std::string_view> prefixes = kTensorFlowSymbolPrefixes);

// The TensorFlow C++ symbols the mock core hosts because C-API plugins import them
// (docs/tensorflow/plugin_imports.md): the constructors and destructors of
// tensorflow::internal::LogMessageFatal (TensorFlow 2.10's logging; 2.15 moved it to tsl::). The
// per-release audit judges them like the C API: profiles list them where the release exports
// them.
inline constexpr std::string_view kHostedCxxPrefix = "_ZN10tensorflow8internal15LogMessageFatal";

// What the per-release import audit judges: the C API (HasTensorFlowPrefix with the default
// prefixes) and the hosted C++ symbols above.
bool IsAuditedTensorFlowImport(std::string_view name);

struct ImportAudit {
  // Strong undefined imports with a TensorFlow prefix that the core does not export: dlopen
  // with RTLD_NOW fails on the first of them. Sorted by name.
  std::vector<ElfSymbol> missing;
  // Weak undefined imports the core does not export: they resolve to NULL and the plugin loads;
  // worth a note (the plugin must check the address before calling), not a failure.
  std::vector<ElfSymbol> missing_weak;
  // TensorFlow-prefixed imports the core exports. Sorted by name.
  std::vector<ElfSymbol> provided;

  bool ok() const { return missing.empty(); }
  // One line per problem, e.g. "missing TF_Foo (notype, strong)"; empty when there is none.
  std::vector<std::string> Describe() const;
};

ImportAudit AuditImports(const ElfFile& plugin, const SymbolNameSet& core_exports,
                         std::span<const std::string_view> prefixes = kTensorFlowSymbolPrefixes);

// The one of audit.missing glibc's dlopen names, as it names it ("NAME" after "undefined
// symbol: ", or "NAME, version NODE" for an import versioned with NODE): the first the dynamic
// relocations refer to, since it binds them in that order and stops at the first it cannot
// bind. audit.missing must not be empty.
std::string FirstUnboundImport(const ImportAudit& audit, const ElfFile& library);

}  // namespace conformance::loader
