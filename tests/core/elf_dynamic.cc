#include "elf_dynamic.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

namespace conformance::core::testing {

DynamicInfo ReadDynamicInfo(const std::string& path) {
  DynamicInfo info;
  EXPECT_NE(elf_version(EV_CURRENT), EV_NONE);
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    ADD_FAILURE() << "cannot open " << path;
    return info;
  }
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  Elf_Scn* scn = nullptr;
  while (elf != nullptr && (scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr) continue;
    // Only these two are read: TensorFlow's libraries are 1 GB of other sections.
    if (shdr.sh_type != SHT_DYNAMIC && shdr.sh_type != SHT_DYNSYM) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || shdr.sh_entsize == 0) continue;
    const size_t count = shdr.sh_size / shdr.sh_entsize;
    if (shdr.sh_type == SHT_DYNAMIC) {
      for (size_t i = 0; i < count; ++i) {
        GElf_Dyn dyn;
        if (gelf_getdyn(data, static_cast<int>(i), &dyn) == nullptr) continue;
        if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_SONAME) {
          const char* name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
          if (name == nullptr) continue;
          if (dyn.d_tag == DT_NEEDED)
            info.needed.emplace_back(name);
          else
            info.soname = name;
        }
      }
    } else if (shdr.sh_type == SHT_DYNSYM) {
      for (size_t i = 1; i < count; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
        const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
        if (name == nullptr || *name == '\0') continue;
        const int bind = GELF_ST_BIND(sym.st_info);
        if (sym.st_shndx == SHN_UNDEF) {
          info.undefined.insert(name);
        } else if (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) {
          info.defined.insert(name);
        }
      }
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  return info;
}

std::set<std::string> ExportedFunctionsDeclaredIn(const std::string& include_dir) {
  std::set<std::string> names;
  // Declarations span lines; join each header into one line first.
  const std::regex declaration(
      R"(TF_CAPI_EXPORT\s+extern\s+[^;(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(include_dir)) {
    if (entry.path().extension() != ".h") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::string joined = text.str();
    for (char& c : joined) {
      if (c == '\n') c = ' ';
    }
    for (std::sregex_iterator it(joined.begin(), joined.end(), declaration), end; it != end; ++it) {
      names.insert((*it)[1]);
    }
  }
  return names;
}

}  // namespace conformance::core::testing
