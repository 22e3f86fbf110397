#include "loader/elf_file.h"

#include <sys/stat.h>

#include <elf.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "loader/file_descriptor.h"

namespace conformance::loader {

std::string_view ToString(SymbolBinding binding) {
  switch (binding) {
    case SymbolBinding::kLocal: return "local";
    case SymbolBinding::kGlobal: return "global";
    case SymbolBinding::kWeak: return "weak";
    case SymbolBinding::kUnique: return "unique";
    case SymbolBinding::kOther: return "other";
  }
  return "other";
}

std::string_view ToString(SymbolType type) {
  switch (type) {
    case SymbolType::kNoType: return "notype";
    case SymbolType::kObject: return "object";
    case SymbolType::kFunction: return "function";
    case SymbolType::kTls: return "tls";
    case SymbolType::kIndirectFunction: return "ifunc";
    case SymbolType::kCommon: return "common";
    case SymbolType::kOther: return "other";
  }
  return "other";
}

std::string_view ToString(SymbolVisibility visibility) {
  switch (visibility) {
    case SymbolVisibility::kDefault: return "default";
    case SymbolVisibility::kInternal: return "internal";
    case SymbolVisibility::kHidden: return "hidden";
    case SymbolVisibility::kProtected: return "protected";
  }
  return "default";
}

bool ElfFile::IsExported(std::string_view name) const {
  return std::any_of(exported_symbols.begin(), exported_symbols.end(),
                     [&](const ElfSymbol& symbol) { return symbol.name == name; });
}

namespace {

struct ElfDeleter {
  void operator()(Elf* elf) const { elf_end(elf); }
};
using ElfHandle = std::unique_ptr<Elf, ElfDeleter>;

// libelf refuses to work until the caller has declared the ELF version it understands; doing
// it once per process is enough and a function-local static makes it thread-safe.
bool InitLibelf() {
  static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
  return ready;
}

LoaderError Malformed(const std::filesystem::path& path, const std::string& what) {
  return {LoaderErrorKind::kMalformedElf, path.string(), "malformed ELF file (" + what + ")"};
}

std::string LibelfMessage() {
  const char* message = elf_errmsg(-1);
  return message != nullptr ? message : "unknown libelf error";
}

SymbolBinding DecodeBinding(unsigned char info) {
  switch (GELF_ST_BIND(info)) {
    case STB_LOCAL: return SymbolBinding::kLocal;
    case STB_GLOBAL: return SymbolBinding::kGlobal;
    case STB_WEAK: return SymbolBinding::kWeak;
    case STB_GNU_UNIQUE: return SymbolBinding::kUnique;
    default: return SymbolBinding::kOther;
  }
}

SymbolType DecodeType(unsigned char info) {
  switch (GELF_ST_TYPE(info)) {
    case STT_NOTYPE: return SymbolType::kNoType;
    case STT_OBJECT: return SymbolType::kObject;
    case STT_FUNC: return SymbolType::kFunction;
    case STT_TLS: return SymbolType::kTls;
    case STT_GNU_IFUNC: return SymbolType::kIndirectFunction;
    case STT_COMMON: return SymbolType::kCommon;
    default: return SymbolType::kOther;
  }
}

SymbolVisibility DecodeVisibility(unsigned char other) {
  switch (GELF_ST_VISIBILITY(other)) {
    case STV_INTERNAL: return SymbolVisibility::kInternal;
    case STV_HIDDEN: return SymbolVisibility::kHidden;
    case STV_PROTECTED: return SymbolVisibility::kProtected;
    default: return SymbolVisibility::kDefault;
  }
}

std::string StringAt(Elf* elf, std::size_t table, std::size_t offset) {
  const char* text = elf_strptr(elf, table, offset);
  return text != nullptr ? text : "";
}

// Section symbols and file symbols are bookkeeping, never something to import or export.
bool IsBookkeeping(const GElf_Sym& symbol) {
  const int type = GELF_ST_TYPE(symbol.st_info);
  return type == STT_SECTION || type == STT_FILE;
}

ElfSymbol MakeSymbol(std::string name, const GElf_Sym& raw) {
  ElfSymbol symbol;
  symbol.name = std::move(name);
  symbol.binding = DecodeBinding(raw.st_info);
  symbol.type = DecodeType(raw.st_info);
  symbol.visibility = DecodeVisibility(raw.st_other);
  symbol.defined = raw.st_shndx != SHN_UNDEF;
  symbol.size = raw.st_size;
  return symbol;
}

bool IsExportedDefinition(const ElfSymbol& symbol) {
  const bool visible_binding = symbol.binding == SymbolBinding::kGlobal ||
                               symbol.binding == SymbolBinding::kWeak ||
                               symbol.binding == SymbolBinding::kUnique;
  const bool visible = symbol.visibility == SymbolVisibility::kDefault ||
                       symbol.visibility == SymbolVisibility::kProtected;
  return symbol.defined && visible_binding && visible;
}

// The loader maps every PT_LOAD segment's file bytes; a segment that ends past the end of the
// file maps pages with nothing behind them, and touching those kills dlopen's caller with
// SIGBUS. A copy cut short (an interrupted download, a full disk) looks like that.
std::optional<LoaderError> CheckNotTruncated(Elf* elf, int fd, const std::filesystem::path& path) {
  struct stat status {};
  GElf_Ehdr header;
  if (fstat(fd, &status) != 0 || gelf_getehdr(elf, &header) == nullptr) return std::nullopt;
  const auto size = static_cast<std::uint64_t>(status.st_size);
  const auto truncated = [&](const std::string& what, std::uint64_t end) {
    return LoaderError{LoaderErrorKind::kMalformedElf, path.string(),
                       "truncated ELF file (" + std::to_string(size) + " bytes; " + what +
                           " ends at byte " + std::to_string(end) + ")"};
  };
  const std::uint64_t program_headers_end =
      header.e_phoff + std::uint64_t{header.e_phnum} * header.e_phentsize;
  if (header.e_phnum > 0 && program_headers_end > size) {
    return truncated("the program header table", program_headers_end);
  }
  for (std::size_t i = 0; i < header.e_phnum; ++i) {
    GElf_Phdr segment;
    if (gelf_getphdr(elf, static_cast<int>(i), &segment) == nullptr) break;
    const std::uint64_t end = segment.p_offset + segment.p_filesz;
    if (segment.p_type == PT_LOAD && end > size) {
      return truncated("loadable segment " + std::to_string(i), end);
    }
  }
  const std::uint64_t section_headers_end =
      header.e_shoff + std::uint64_t{header.e_shnum} * header.e_shentsize;
  // dlopen never reads section headers, and a corrupt e_shoff looks the same from here.
  if (header.e_shoff != 0 && section_headers_end > size) {
    return Malformed(path, "the section header table ends at byte " +
                               std::to_string(section_headers_end) + ", past the end of the " +
                               std::to_string(size) +
                               "-byte file: cut short, or a corrupt e_shoff");
  }
  return std::nullopt;
}

std::optional<LoaderError> ReadDynamicSection(Elf* elf, Elf_Scn* section, const GElf_Shdr& header,
                                              ElfFile& file) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (data == nullptr) return Malformed(file.path, "unreadable .dynamic: " + LibelfMessage());
  const std::size_t entry_size = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
  if (entry_size == 0) return Malformed(file.path, "unknown dynamic entry size");
  const std::size_t count = data->d_size / entry_size;
  for (std::size_t i = 0; i < count; ++i) {
    GElf_Dyn entry;
    if (gelf_getdyn(data, static_cast<int>(i), &entry) == nullptr) break;
    if (entry.d_tag == DT_NULL) break;
    switch (entry.d_tag) {
      case DT_NEEDED: file.needed.push_back(StringAt(elf, header.sh_link, entry.d_un.d_val)); break;
      case DT_SONAME: file.soname = StringAt(elf, header.sh_link, entry.d_un.d_val); break;
      case DT_RPATH: file.rpath = StringAt(elf, header.sh_link, entry.d_un.d_val); break;
      case DT_RUNPATH: file.runpath = StringAt(elf, header.sh_link, entry.d_un.d_val); break;
      case DT_FLAGS_1:
        file.position_independent_executable = (entry.d_un.d_val & DF_1_PIE) != 0;
        file.no_default_lib = (entry.d_un.d_val & DF_1_NODEFLIB) != 0;
        break;
      default: break;
    }
  }
  return std::nullopt;
}

template <typename Visit>
std::optional<LoaderError> ForEachSymbol(Elf* elf, Elf_Scn* section, const GElf_Shdr& header,
                                         const std::filesystem::path& path, Visit visit) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (data == nullptr) return Malformed(path, "unreadable symbol table: " + LibelfMessage());
  if (header.sh_entsize == 0) return Malformed(path, "symbol table with zero entry size");
  const std::size_t count = header.sh_size / header.sh_entsize;
  // GNU ld lists the symbols it made local itself (hidden visibility, version-script local:)
  // after a FILE symbol with an empty name, and resets their visibility to default; that
  // position is the only trace of why they are local.
  bool after_anonymous_file = false;
  // Entry 0 is the reserved null symbol in every ELF symbol table.
  for (std::size_t i = 1; i < count; ++i) {
    GElf_Sym raw;
    if (gelf_getsym(data, static_cast<int>(i), &raw) == nullptr) {
      return Malformed(path, "unreadable symbol " + std::to_string(i) + ": " + LibelfMessage());
    }
    if (GELF_ST_TYPE(raw.st_info) == STT_FILE) {
      after_anonymous_file = StringAt(elf, header.sh_link, raw.st_name).empty();
    }
    if (IsBookkeeping(raw)) continue;
    visit(raw, header.sh_link, after_anonymous_file, i);
  }
  return std::nullopt;
}

// The GNU symbol versions of .dynsym: each symbol's version index (.gnu.version) and the names
// the needed versions' indices stand for (.gnu.version_r).
struct SymbolVersions {
  std::vector<std::uint16_t> index_of_symbol;
  std::map<std::uint16_t, std::string> needed;

  // The version node symbol `index` is required from; empty for none (0 local, 1 global).
  std::string RequiredBy(std::size_t index) const {
    if (index >= index_of_symbol.size()) return {};
    const auto version = static_cast<std::uint16_t>(index_of_symbol[index] & 0x7fff);
    const auto found = needed.find(version);
    return found == needed.end() ? std::string() : found->second;
  }
};

void ReadVersionIndices(Elf_Scn* section, SymbolVersions& versions) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (data == nullptr || data->d_buf == nullptr) return;
  const auto* indices = static_cast<const std::uint16_t*>(data->d_buf);
  versions.index_of_symbol.assign(indices, indices + data->d_size / sizeof(std::uint16_t));
}

void ReadNeededVersions(Elf* elf, Elf_Scn* section, const GElf_Shdr& header,
                        SymbolVersions& versions) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (data == nullptr) return;
  int offset = 0;
  for (std::size_t file = 0; file < header.sh_info; ++file) {
    GElf_Verneed needed;
    if (gelf_getverneed(data, offset, &needed) == nullptr) return;
    int aux_offset = offset + static_cast<int>(needed.vn_aux);
    for (std::size_t v = 0; v < needed.vn_cnt; ++v) {
      GElf_Vernaux aux;
      if (gelf_getvernaux(data, aux_offset, &aux) == nullptr) return;
      versions.needed[static_cast<std::uint16_t>(aux.vna_other)] =
          StringAt(elf, header.sh_link, aux.vna_name);
      if (aux.vna_next == 0) break;
      aux_offset += static_cast<int>(aux.vna_next);
    }
    if (needed.vn_next == 0) return;
    offset += static_cast<int>(needed.vn_next);
  }
}

// Appends to file.relocation_order the symbols a SHT_RELA section over .dynsym names, each once.
std::optional<LoaderError> ReadRelocations(Elf* elf, Elf_Scn* section, const GElf_Shdr& header,
                                           ElfFile& file, std::set<std::string>& seen) {
  Elf_Scn* symbols = elf_getscn(elf, header.sh_link);
  GElf_Shdr symbols_header;
  if (symbols == nullptr || gelf_getshdr(symbols, &symbols_header) == nullptr ||
      symbols_header.sh_type != SHT_DYNSYM) {
    return std::nullopt;  // not a dynamic relocation section
  }
  Elf_Data* data = elf_getdata(section, nullptr);
  Elf_Data* symbol_data = elf_getdata(symbols, nullptr);
  if (data == nullptr || symbol_data == nullptr || header.sh_entsize == 0)
    return Malformed(file.path, "unreadable relocation section: " + LibelfMessage());
  const std::size_t count = header.sh_size / header.sh_entsize;
  for (std::size_t i = 0; i < count; ++i) {
    GElf_Rela rela;
    if (gelf_getrela(data, static_cast<int>(i), &rela) == nullptr)
      return Malformed(file.path, "unreadable relocation: " + LibelfMessage());
    const auto index = static_cast<int>(GELF_R_SYM(rela.r_info));
    GElf_Sym raw;
    if (index == 0 || gelf_getsym(symbol_data, index, &raw) == nullptr) continue;
    std::string name = StringAt(elf, symbols_header.sh_link, raw.st_name);
    if (seen.insert(name).second) file.relocation_order.push_back(std::move(name));
  }
  return std::nullopt;
}

}  // namespace

std::optional<LoaderError> CheckSharedObject(const ElfFile& file) {
  const auto not_shared = [&](std::string message) {
    return LoaderError{LoaderErrorKind::kNotSharedObject, file.path.string(), std::move(message)};
  };
  switch (file.type) {
    case ET_DYN:
      if (!file.position_independent_executable) return std::nullopt;
      return not_shared(
          "is a position-independent executable (ET_DYN with DF_1_PIE), not a shared library; "
          "glibc refuses to dlopen executables, link the plugin with -shared");
    case ET_EXEC:
      return not_shared(
          "is an executable (ET_EXEC), not a shared library; build the plugin with -shared -fPIC");
    case ET_REL:
      return not_shared(
          "is a relocatable object file (ET_REL, a .o), not a shared library; link it with "
          "-shared");
    case ET_CORE: return not_shared("is a core dump (ET_CORE), not a shared library");
    default:
      return not_shared("has ELF type " + ElfTypeName(file.type) +
                        ", not a shared library (ET_DYN)");
  }
}

Result<ElfFile> ReadElfFile(const std::filesystem::path& path, const ElfReadOptions& options) {
  // The raw header first: it gives the precise "not ELF / wrong machine" messages before libelf
  // (which would only say "invalid file") is involved.
  auto header = ReadElfHeader(path);
  if (!header) return header.error();
  if (options.require_loadable_here) {
    if (auto mismatch = CheckMatchesThisProcess(path, *header)) return *mismatch;
  }

  ElfFile file;
  file.path = path;
  file.elf_class = header->elf_class;
  file.little_endian = header->little_endian;
  file.machine = header->machine;
  file.machine_name = MachineName(header->machine);
  file.type = header->type;

  if (!InitLibelf()) return Malformed(path, "libelf initialisation failed: " + LibelfMessage());
  auto fd = OpenRegularFile(path);
  if (!fd) return fd.error();
  ElfHandle elf(elf_begin(fd->get(), ELF_C_READ_MMAP, nullptr));
  if (!elf) return Malformed(path, LibelfMessage());
  if (elf_kind(elf.get()) != ELF_K_ELF) return Malformed(path, "libelf does not see an ELF object");
  if (auto cut = CheckNotTruncated(elf.get(), fd->get(), path)) return *cut;

  std::size_t section_count = 0;
  if (elf_getshdrnum(elf.get(), &section_count) != 0) return Malformed(path, LibelfMessage());
  if (section_count == 0 && file.type == ET_DYN) {
    return Malformed(path,
                     "no section headers (stripped with sstrip?); the harness reads the dynamic "
                     "section and symbols through them");
  }

  std::set<std::string> relocated;
  std::vector<std::size_t> import_index;  // .dynsym index of each undefined_symbols entry
  SymbolVersions versions;
  Elf_Scn* section = nullptr;
  while ((section = elf_nextscn(elf.get(), section)) != nullptr) {
    GElf_Shdr section_header;
    if (gelf_getshdr(section, &section_header) == nullptr) return Malformed(path, LibelfMessage());
    std::optional<LoaderError> failure;
    switch (section_header.sh_type) {
      case SHT_DYNAMIC:
        failure = ReadDynamicSection(elf.get(), section, section_header, file);
        break;
      case SHT_DYNSYM:
        if (!options.read_dynamic_symbols) break;
        failure = ForEachSymbol(
            elf.get(), section, section_header, path,
            [&](const GElf_Sym& raw, std::size_t strings, bool, std::size_t index) {
              ElfSymbol symbol = MakeSymbol(StringAt(elf.get(), strings, raw.st_name), raw);
              if (!symbol.defined) {
                if (symbol.binding == SymbolBinding::kGlobal ||
                    symbol.binding == SymbolBinding::kWeak) {
                  import_index.push_back(index);
                  file.undefined_symbols.push_back(std::move(symbol));
                }
              } else if (IsExportedDefinition(symbol)) {
                file.exported_symbols.push_back(std::move(symbol));
              }
            });
        break;
      case SHT_GNU_versym:
        if (options.read_dynamic_symbols) ReadVersionIndices(section, versions);
        break;
      case SHT_GNU_verneed:
        if (options.read_dynamic_symbols)
          ReadNeededVersions(elf.get(), section, section_header, versions);
        break;
      case SHT_RELA:
        if (!options.read_dynamic_symbols) break;
        failure = ReadRelocations(elf.get(), section, section_header, file, relocated);
        break;
      case SHT_SYMTAB:
        file.has_symtab = true;
        if (!options.symtab_filter) break;
        failure = ForEachSymbol(
            elf.get(), section, section_header, path,
            [&](const GElf_Sym& raw, std::size_t strings, bool after_anonymous_file, std::size_t) {
              const char* name = elf_strptr(elf.get(), strings, raw.st_name);
              if (name == nullptr || !options.symtab_filter(name)) return;
              ElfSymbol symbol = MakeSymbol(name, raw);
              symbol.linker_made_local =
                  symbol.binding == SymbolBinding::kLocal &&
                  (after_anonymous_file || symbol.visibility == SymbolVisibility::kHidden ||
                   symbol.visibility == SymbolVisibility::kInternal);
              file.symtab_matches.push_back(std::move(symbol));
            });
        break;
      default: break;
    }
    if (failure) return *failure;
  }
  for (std::size_t i = 0; i < file.undefined_symbols.size(); ++i) {
    file.undefined_symbols[i].version = versions.RequiredBy(import_index[i]);
  }

  if (options.require_loadable_here) {
    if (auto not_shared = CheckSharedObject(file)) return *not_shared;
  }
  return file;
}

Result<SymbolNameSet> ExportedSymbols(const std::filesystem::path& library) {
  auto file = ReadElfFile(library);
  if (!file) return file.error();
  SymbolNameSet names;
  for (const ElfSymbol& symbol : file->exported_symbols) names.insert(symbol.name);
  return names;
}

}  // namespace conformance::loader
