#pragma once
// The first bytes of a file: is it ELF, for which class, byte order and machine, and of which
// type. Read without libelf, because the dynamic loader itself decides on exactly these bytes
// whether to use a file, skip it, or fail (glibc's open_verify), and the dependency resolver
// must make the same decision for every candidate it looks at.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "loader/result.h"

namespace conformance::loader {

enum class ElfClass { k32, k64 };

struct ElfHeaderInfo {
  ElfClass elf_class = ElfClass::k64;
  bool little_endian = true;
  std::uint16_t type = 0;     // e_type: ET_DYN, ET_EXEC, ...
  std::uint16_t machine = 0;  // e_machine: EM_X86_64, EM_AARCH64, ...
};

// The ABI this process (the harness) runs with; a plugin must match it to be loadable.
struct ProcessAbi {
  ElfClass elf_class;
  bool little_endian;
  std::uint16_t machine;
};
ProcessAbi ThisProcessAbi();

// "x86-64", "AArch64", "RISC-V", ... or "machine 0x1234" for values we have no name for.
std::string MachineName(std::uint16_t machine);
// "ET_DYN (shared object)", "ET_EXEC (executable)", ...
std::string ElfTypeName(std::uint16_t type);
std::string_view ElfClassName(ElfClass elf_class);  // "ELFCLASS32" / "ELFCLASS64"

// Reads and decodes the ELF identification and e_type/e_machine. Errors: everything
// OpenRegularFile reports, kNotElf (with a description of what the file looks like, e.g.
// "not an ELF file (starts with '#!')"), kMalformedElf (truncated header, unknown class).
Result<ElfHeaderInfo> ReadElfHeader(const std::filesystem::path& path);

// Describes a non-ELF file from its first bytes: "empty file", "starts with '#!'", "a GNU ld
// linker script", "a static library archive ('!<arch>')", ...
std::string DescribeNonElfContent(std::string_view first_bytes);

// kWrongClass / kWrongByteOrder / kWrongMachine when the dynamic loader of this process would
// refuse (or skip) a file with this header; nullopt when it matches.
std::optional<LoaderError> CheckMatchesThisProcess(const std::filesystem::path& path,
                                                   const ElfHeaderInfo& header);

}  // namespace conformance::loader
