#pragma once
// What a shared library says about itself in its dynamic section and symbol tables: the facts
// the import audit, the dependency resolver and the entry-point checks work from. Read with
// libelf; nothing is loaded or executed.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "loader/elf_header.h"
#include "loader/result.h"

namespace conformance::loader {

enum class SymbolBinding { kLocal, kGlobal, kWeak, kUnique, kOther };
enum class SymbolType { kNoType, kObject, kFunction, kTls, kIndirectFunction, kCommon, kOther };
enum class SymbolVisibility { kDefault, kInternal, kHidden, kProtected };

std::string_view ToString(SymbolBinding binding);        // "local", "global", "weak", ...
std::string_view ToString(SymbolType type);              // "function", "object", "notype", ...
std::string_view ToString(SymbolVisibility visibility);  // "default", "hidden", ...

struct ElfSymbol {
  std::string name;
  SymbolBinding binding = SymbolBinding::kGlobal;
  SymbolType type = SymbolType::kNoType;
  SymbolVisibility visibility = SymbolVisibility::kDefault;
  bool defined = false;  // st_shndx != SHN_UNDEF
  std::uint64_t size = 0;
  // .symtab only: a local symbol the source declared global but the linker made local (hidden
  // or internal visibility, or local: in a version script), as opposed to a static one.
  bool linker_made_local = false;
  // .dynsym imports only: the version node the library requires the symbol from (GNU
  // .gnu.version_r; "tensorflow" for a plugin linked against TensorFlow's versioned libraries),
  // empty for an unversioned import. glibc's dlopen names it: "undefined symbol: X, version V".
  std::string version = {};

  bool weak() const { return binding == SymbolBinding::kWeak; }
};

struct ElfFile {
  std::filesystem::path path;
  ElfClass elf_class = ElfClass::k64;
  bool little_endian = true;
  std::uint16_t machine = 0;
  std::string machine_name;  // MachineName(machine)
  std::uint16_t type = 0;    // ET_*
  // ET_DYN with DF_1_PIE: an executable that glibc refuses to dlopen.
  bool position_independent_executable = false;
  // DF_1_NODEFLIB: the loader skips ld.so.cache and the default directories for its needs.
  bool no_default_lib = false;

  std::vector<std::string> needed;     // DT_NEEDED, in order
  std::optional<std::string> soname;   // DT_SONAME
  std::optional<std::string> rpath;    // DT_RPATH, unexpanded ("$ORIGIN/../lib:/opt/x")
  std::optional<std::string> runpath;  // DT_RUNPATH, unexpanded

  // .dynsym entries with st_shndx == SHN_UNDEF and global or weak binding: what the library
  // needs from elsewhere.
  std::vector<ElfSymbol> undefined_symbols;
  // .dynsym entries that are defined, global/weak/unique, with default or protected
  // visibility: what dlsym can find in this library.
  std::vector<ElfSymbol> exported_symbols;

  // .dynsym names in the order the dynamic relocations (.rela.dyn, then .rela.plt) first refer
  // to them: the order glibc binds them in, so the first one nothing provides is the one
  // dlopen's "undefined symbol" names.
  std::vector<std::string> relocation_order;

  bool has_symtab = false;  // false for stripped libraries: symtab_matches is then empty
  // .symtab entries (any binding/visibility, defined or not) whose names passed
  // ElfReadOptions::symtab_filter, in table order.
  std::vector<ElfSymbol> symtab_matches;

  bool IsExported(std::string_view name) const;
};

struct ElfReadOptions {
  // Fail unless this process could load the file: same class, byte order and machine, and a
  // shared object (ET_DYN that is not a PIE executable). Off: any ELF file is described.
  bool require_loadable_here = true;
  // Off: skip .dynsym (undefined_symbols/exported_symbols stay empty); for callers that only
  // need the dynamic section, such as reading the DT_SONAME of every loaded object.
  bool read_dynamic_symbols = true;
  // Which .symtab entries to keep (the static table of a large plugin has hundreds of
  // thousands of entries; callers ask for the few names they care about). Empty: none.
  std::function<bool(std::string_view name)> symtab_filter;
};

// Errors (LoaderError names the path): kNoSuchFile "no such file", kIsDirectory,
// kPermissionDenied, kNotElf "not an ELF file (starts with '#!')", kMalformedElf, and with
// require_loadable_here: kWrongClass, kWrongByteOrder, kWrongMachine "built for AArch64, this
// harness runs on x86-64", kNotSharedObject (ET_EXEC, PIE, ET_REL, ET_CORE).
Result<ElfFile> ReadElfFile(const std::filesystem::path& path, const ElfReadOptions& options = {});

// kNotSharedObject unless the file is a shared object dlopen accepts (ET_DYN, not a PIE).
std::optional<LoaderError> CheckSharedObject(const ElfFile& file);

using SymbolNameSet = std::set<std::string, std::less<>>;

// Names of the symbols a library exports through its dynamic symbol table (what another
// object's undefined references can bind to). Used to learn what the mock core provides.
Result<SymbolNameSet> ExportedSymbols(const std::filesystem::path& library);

}  // namespace conformance::loader
