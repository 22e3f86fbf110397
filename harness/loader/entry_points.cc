#include "loader/entry_points.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

namespace conformance::loader {

std::string UnexportedEntryPoint::Describe() const {
  const std::string consequence = ", so dlsym cannot find it and TensorFlow skips that module";
  switch (reason) {
    case UnexportedReason::kHiddenVisibility:
      return entry_point +
             " is defined but not exported (hidden visibility, or local: in a version script)" +
             consequence +
             "; declare it __attribute__((visibility(\"default\"))) and list it under global: "
             "in any version script";
    case UnexportedReason::kStatic:
      return entry_point + " is defined static" + consequence + "; remove the static";
    case UnexportedReason::kCxxLinkage:
      return entry_point + " is exported only under the C++ name " + symbol + consequence +
             "; declare it extern \"C\"";
  }
  return entry_point;
}

namespace {

bool IsEntryPointName(std::string_view name) {
  return std::find(kEntryPointNames.begin(), kEntryPointNames.end(), name) !=
         kEntryPointNames.end();
}

// A mangled name can only belong to entry point X if X's name appears in it, which is a cheap
// test to run before demangling (large plugins have hundreds of thousands of symbols).
bool MayBeMangledEntryPoint(std::string_view name) {
  if (!name.starts_with("_Z")) return false;
  return std::any_of(kEntryPointNames.begin(), kEntryPointNames.end(), [&](std::string_view entry) {
    return name.find(entry) != std::string_view::npos;
  });
}

// The entry point a mangled function name stands for: "SE_InitPlugin(void*, void*)" and
// "vendor::SE_InitPlugin(void*, void*)" both name SE_InitPlugin.
std::optional<std::string_view> MangledEntryPoint(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !demangled) return std::nullopt;
  const std::string_view text(demangled.get());
  for (std::string_view entry : kEntryPointNames) {
    const std::string call = std::string(entry) + "(";
    const std::size_t at = text.find(call);
    if (at == std::string_view::npos) continue;
    if (at == 0 || (at >= 2 && text.substr(at - 2, 2) == "::")) return entry;
  }
  return std::nullopt;
}

}  // namespace

std::function<bool(std::string_view)> EntryPointSymbolFilter() {
  return
      [](std::string_view name) { return IsEntryPointName(name) || MayBeMangledEntryPoint(name); };
}

EntryPointDiagnosis DiagnoseEntryPoints(const ElfFile& file) {
  EntryPointDiagnosis diagnosis;
  diagnosis.symtab_available = file.has_symtab;
  const auto already_reported = [&](std::string_view entry) {
    return std::any_of(
        diagnosis.unexported.begin(), diagnosis.unexported.end(),
        [&](const UnexportedEntryPoint& found) { return found.entry_point == entry; });
  };
  const auto consider = [&](const ElfSymbol& symbol) {
    if (!symbol.defined) return;
    if (IsEntryPointName(symbol.name)) {
      if (file.IsExported(symbol.name) || already_reported(symbol.name)) return;
      const bool hidden = symbol.linker_made_local ||
                          symbol.visibility == SymbolVisibility::kHidden ||
                          symbol.visibility == SymbolVisibility::kInternal;
      if (!hidden && symbol.binding != SymbolBinding::kLocal) return;
      diagnosis.unexported.push_back(
          {symbol.name, symbol.name,
           hidden ? UnexportedReason::kHiddenVisibility : UnexportedReason::kStatic});
      return;
    }
    if (!MayBeMangledEntryPoint(symbol.name)) return;
    const auto entry = MangledEntryPoint(symbol.name);
    if (!entry || file.IsExported(*entry) || already_reported(*entry)) return;
    diagnosis.unexported.push_back(
        {std::string(*entry), symbol.name, UnexportedReason::kCxxLinkage});
  };
  for (const ElfSymbol& symbol : file.exported_symbols) consider(symbol);
  for (const ElfSymbol& symbol : file.symtab_matches) consider(symbol);
  // Report in TensorFlow's lookup order, whatever order the tables had.
  const auto rank = [](const UnexportedEntryPoint& item) {
    return std::find(kEntryPointNames.begin(), kEntryPointNames.end(), item.entry_point) -
           kEntryPointNames.begin();
  };
  std::stable_sort(diagnosis.unexported.begin(), diagnosis.unexported.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return diagnosis;
}

Result<EntryPointDiagnosis> DiagnoseEntryPoints(const std::filesystem::path& path) {
  ElfReadOptions options;
  options.symtab_filter = EntryPointSymbolFilter();
  auto file = ReadElfFile(path, options);
  if (!file) return file.error();
  return DiagnoseEntryPoints(*file);
}

}  // namespace conformance::loader
