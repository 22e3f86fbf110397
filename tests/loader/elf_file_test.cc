#include "loader/elf_file.h"

#include <elf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using testing::CopyAndPatch;
using ::testing::HasSubstr;
using testing::TempDir;
using testing::WriteFile;

const ElfSymbol* FindSymbol(const std::vector<ElfSymbol>& symbols, std::string_view name) {
  auto it = std::find_if(symbols.begin(), symbols.end(),
                         [&](const ElfSymbol& symbol) { return symbol.name == name; });
  return it == symbols.end() ? nullptr : &*it;
}

TEST(ReadElfFile, DescribesASharedLibrary) {
  auto file = ReadElfFile(LOADER_NEEDS_TF);
  ASSERT_TRUE(file.ok()) << file.error().Describe();
  EXPECT_EQ(file->elf_class, ElfClass::k64);
  EXPECT_EQ(file->machine, EM_X86_64);
  EXPECT_EQ(file->machine_name, "x86-64");
  EXPECT_EQ(file->type, ET_DYN);
  EXPECT_FALSE(file->position_independent_executable);
  EXPECT_THAT(file->needed, Contains("_pywrap_tensorflow_internal.so"));
  EXPECT_THAT(file->needed, Contains("libtensorflow_framework.so.2"));
  EXPECT_EQ(file->soname, "libloader_needs_tf.so");
  EXPECT_NE(FindSymbol(file->exported_symbols, "loader_needs_stub"), nullptr);
}

TEST(ReadElfFile, ClassifiesUndefinedImports) {
  auto file = ReadElfFile(LOADER_IMPORTS_TF);
  ASSERT_TRUE(file.ok()) << file.error().Describe();
  for (const char* name : {"TF_Foo", "TF_Bar", "TF_Hidden", "SE_Baz"}) {
    const ElfSymbol* symbol = FindSymbol(file->undefined_symbols, name);
    ASSERT_NE(symbol, nullptr) << name;
    EXPECT_FALSE(symbol->defined);
    EXPECT_EQ(symbol->binding, SymbolBinding::kGlobal) << name;
  }
  const ElfSymbol* weak = FindSymbol(file->undefined_symbols, "TF_Weak");
  ASSERT_NE(weak, nullptr);
  EXPECT_TRUE(weak->weak());
  const ElfSymbol* entry = FindSymbol(file->exported_symbols, "SE_InitPlugin");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->type, SymbolType::kFunction);
  EXPECT_EQ(entry->visibility, SymbolVisibility::kDefault);
  EXPECT_EQ(FindSymbol(file->undefined_symbols, "SE_InitPlugin"), nullptr);
}

TEST(ReadElfFile, ReadsRunpathAndRpathUnexpanded) {
  auto runpath = ReadElfFile(LOADER_RUNPATH_PLUGIN);
  ASSERT_TRUE(runpath.ok()) << runpath.error().Describe();
  EXPECT_EQ(runpath->runpath, "$ORIGIN/sub");
  EXPECT_EQ(runpath->rpath, std::nullopt);
  auto rpath = ReadElfFile(LOADER_RPATH_PLUGIN);
  ASSERT_TRUE(rpath.ok()) << rpath.error().Describe();
  EXPECT_EQ(rpath->rpath, "$ORIGIN/sub");
  EXPECT_EQ(rpath->runpath, std::nullopt);
}

TEST(ReadElfFile, HiddenDefinitionsAreNotExported) {
  auto file = ReadElfFile(LOADER_FAKE_CORE);
  ASSERT_TRUE(file.ok()) << file.error().Describe();
  EXPECT_TRUE(file->IsExported("TF_Bar"));
  EXPECT_FALSE(file->IsExported("TF_Hidden"));
}

TEST(ReadElfFile, SymtabFilterKeepsOnlyRequestedNames) {
  ElfReadOptions options;
  options.symtab_filter = [](std::string_view name) { return name == "TF_Hidden"; };
  auto file = ReadElfFile(LOADER_FAKE_CORE, options);
  ASSERT_TRUE(file.ok()) << file.error().Describe();
  ASSERT_TRUE(file->has_symtab);
  ASSERT_EQ(file->symtab_matches.size(), 1u);
  const ElfSymbol& hidden = file->symtab_matches[0];
  EXPECT_TRUE(hidden.defined);
  EXPECT_EQ(hidden.binding, SymbolBinding::kLocal);
  // GNU ld resets the visibility of symbols it made local; the flag keeps the distinction.
  EXPECT_TRUE(hidden.linker_made_local);
}

TEST(ReadElfFile, MissingFile) {
  const std::string path = std::string(LOADER_TESTLIB_DIR) + "/no_such_plugin.so";
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kNoSuchFile);
  EXPECT_EQ(file.error().Describe(), path + ": no such file");
}

TEST(ReadElfFile, Directory) {
  auto file = ReadElfFile(LOADER_TESTLIB_DIR);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kIsDirectory);
  EXPECT_EQ(file.error().Describe(),
            std::string(LOADER_TESTLIB_DIR) + ": is a directory, not a shared library");
}

TEST(ReadElfFile, Unreadable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their mode";
  TempDir dir;
  const auto path = dir / "locked.so";
  std::filesystem::copy_file(LOADER_GOOD_PLUGIN, path);
  ::chmod(path.c_str(), 0);
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kPermissionDenied);
  EXPECT_THAT(file.error().Describe(),
              AllOf(HasSubstr(path.string()), HasSubstr("permission denied")));
}

TEST(ReadElfFile, ShellScript) {
  TempDir dir;
  const auto path = dir / "plugin.so";
  WriteFile(path, "#!/bin/sh\necho not a library\n");
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kNotElf);
  EXPECT_EQ(file.error().Describe(), path.string() + ": not an ELF file (starts with '#!')");
}

TEST(ReadElfFile, OtherNonElfFiles) {
  TempDir dir;
  const struct {
    std::string_view content;
    std::string_view description;
  } cases[] = {
      {"", "not an ELF file (empty file)"},
      {"/* GNU ld script\n   Use the shared library */\nGROUP ( libc.so.6 )\n",
       "not an ELF file (a GNU ld linker script, not a shared library)"},
      {"!<arch>\nfoo.o/", "not an ELF file (a static library archive ('!<arch>')"},
      {"hello world\n", "not an ELF file (starts with 'hello wo')"},
      {std::string_view("\x00\x01\x02\x03\x04", 5),
       "not an ELF file (starts with bytes 00 01 02 03)"},
      {"\x7f"
       "ELF\x02\x01",
       "truncated ELF file (6 bytes; the ELF header alone needs 64)"},
  };
  for (const auto& c : cases) {
    const auto path = dir / "candidate.so";
    WriteFile(path, c.content);
    auto file = ReadElfFile(path);
    ASSERT_FALSE(file.ok()) << c.description;
    EXPECT_THAT(file.error().Describe(),
                HasSubstr(path.string() + ": " + std::string(c.description)));
  }
}

TEST(ReadElfFile, WrongArchitecture) {
  TempDir dir;
  const auto path = dir / "aarch64_plugin.so";
  CopyAndPatch(LOADER_GOOD_PLUGIN, path, offsetof(Elf64_Ehdr, e_machine), {EM_AARCH64, 0});
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kWrongMachine);
  EXPECT_EQ(file.error().Describe(),
            path.string() + ": built for AArch64, this harness runs on x86-64");

  // Without the loadability requirement the same file is described, machine and all.
  ElfReadOptions lenient;
  lenient.require_loadable_here = false;
  auto described = ReadElfFile(path, lenient);
  ASSERT_TRUE(described.ok()) << described.error().Describe();
  EXPECT_EQ(described->machine_name, "AArch64");
}

TEST(ReadElfFile, WrongClass) {
  TempDir dir;
  const auto path = dir / "plugin32.so";
  CopyAndPatch(LOADER_GOOD_PLUGIN, path, EI_CLASS, {ELFCLASS32});
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kWrongClass);
  EXPECT_EQ(file.error().Describe(),
            path.string() +
                ": 32-bit ELF file (ELFCLASS32), this harness is 64-bit and can only load 64-bit "
                "plugins");
}

TEST(ReadElfFile, BigEndian) {
  TempDir dir;
  const auto path = dir / "big.so";
  CopyAndPatch(LOADER_GOOD_PLUGIN, path, EI_DATA, {ELFDATA2MSB});
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kWrongByteOrder);
  EXPECT_THAT(file.error().Describe(),
              HasSubstr("big-endian ELF file, this harness runs little-endian"));
}

TEST(ReadElfFile, NonPieExecutable) {
  auto file = ReadElfFile(LOADER_NOT_PIE);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kNotSharedObject);
  EXPECT_THAT(file.error().Describe(),
              AllOf(HasSubstr(LOADER_NOT_PIE), HasSubstr("is an executable (ET_EXEC)"),
                    HasSubstr("-shared -fPIC")));
}

TEST(ReadElfFile, PositionIndependentExecutable) {
  ElfReadOptions lenient;
  lenient.require_loadable_here = false;
  auto self = ReadElfFile("/proc/self/exe", lenient);
  ASSERT_TRUE(self.ok()) << self.error().Describe();
  if (!self->position_independent_executable) GTEST_SKIP() << "test binary is not a PIE";
  auto file = ReadElfFile("/proc/self/exe");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kNotSharedObject);
  EXPECT_THAT(file.error().Describe(), HasSubstr("is a position-independent executable"));
}

TEST(ReadElfFile, RelocatableObject) {
  auto file = ReadElfFile(LOADER_OBJECT_FILE);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kNotSharedObject);
  EXPECT_THAT(
      file.error().Describe(),
      AllOf(HasSubstr(LOADER_OBJECT_FILE),
            HasSubstr("is a relocatable object file (ET_REL, a .o), not a shared library")));
}

TEST(ReadElfFile, CorruptSectionTable) {
  TempDir dir;
  const auto path = dir / "corrupt.so";
  // e_shoff far beyond the end of the file.
  CopyAndPatch(LOADER_GOOD_PLUGIN, path, offsetof(Elf64_Ehdr, e_shoff),
               {0, 0, 0, 0, 0, 0, 0, 0x40});
  auto file = ReadElfFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().kind, LoaderErrorKind::kMalformedElf);
  EXPECT_THAT(file.error().Describe(),
              AllOf(HasSubstr(path.string()), HasSubstr("malformed ELF file")));
}

TEST(ExportedSymbols, ListsDefaultVisibilityDefinitions) {
  auto names = ExportedSymbols(LOADER_FAKE_CORE);
  ASSERT_TRUE(names.ok()) << names.error().Describe();
  EXPECT_TRUE(names->contains("TF_Bar"));
  EXPECT_FALSE(names->contains("TF_Hidden"));
}

TEST(ExportedSymbols, ReportsUnreadableLibrary) {
  auto names = ExportedSymbols("/nonexistent/libcore.so");
  ASSERT_FALSE(names.ok());
  EXPECT_EQ(names.error().Describe(), "/nonexistent/libcore.so: no such file");
}

TEST(MachineName, NamesCommonMachines) {
  EXPECT_EQ(MachineName(EM_AARCH64), "AArch64");
  EXPECT_EQ(MachineName(EM_X86_64), "x86-64");
  EXPECT_EQ(MachineName(0x7777), "machine 0x7777");
}

}  // namespace
}  // namespace conformance::loader
