#include "loader/elf_header.h"

#include <elf.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "loader/file_descriptor.h"

namespace conformance::loader {

ProcessAbi ThisProcessAbi() {
  ProcessAbi abi{};
  abi.elf_class = sizeof(void*) == 8 ? ElfClass::k64 : ElfClass::k32;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  abi.little_endian = true;
#else
  abi.little_endian = false;
#endif
#if defined(__x86_64__)
  abi.machine = EM_X86_64;
#elif defined(__i386__)
  abi.machine = EM_386;
#elif defined(__aarch64__)
  abi.machine = EM_AARCH64;
#elif defined(__arm__)
  abi.machine = EM_ARM;
#elif defined(__powerpc64__)
  abi.machine = EM_PPC64;
#elif defined(__s390x__)
  abi.machine = EM_S390;
#elif defined(__riscv)
  abi.machine = EM_RISCV;
#elif defined(__loongarch__)
  abi.machine = 258;  // EM_LOONGARCH, absent from older <elf.h>
#else
#error "ThisProcessAbi: add this architecture's EM_* value"
#endif
  return abi;
}

std::string MachineName(std::uint16_t machine) {
  switch (machine) {
    case EM_NONE: return "no machine (EM_NONE)";
    case EM_386: return "x86 (i386)";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "32-bit ARM";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "IBM S/390";
    case EM_RISCV: return "RISC-V";
    case 258: return "LoongArch";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC V9";
    case EM_IA_64: return "IA-64";
    case EM_BPF: return "eBPF";
    // Device code objects: a vendor pointing the harness at a kernel binary instead of the
    // host-side plugin library is a plausible mistake, so name them.
    case 190: return "NVIDIA CUDA (device code)";
    case 224: return "AMD GPU (device code)";
    default: {
      std::array<char, 32> text{};
      std::snprintf(text.data(), text.size(), "machine 0x%x", machine);
      return text.data();
    }
  }
}

std::string ElfTypeName(std::uint16_t type) {
  switch (type) {
    case ET_NONE: return "ET_NONE (no file type)";
    case ET_REL: return "ET_REL (relocatable object)";
    case ET_EXEC: return "ET_EXEC (executable)";
    case ET_DYN: return "ET_DYN (shared object)";
    case ET_CORE: return "ET_CORE (core dump)";
    default: {
      std::array<char, 32> text{};
      std::snprintf(text.data(), text.size(), "type 0x%x", type);
      return text.data();
    }
  }
}

std::string_view ElfClassName(ElfClass elf_class) {
  return elf_class == ElfClass::k32 ? "ELFCLASS32" : "ELFCLASS64";
}

namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string PrintablePrefix(std::string_view bytes) {
  std::string text;
  for (char c : bytes.substr(0, 8)) {
    if (c == '\n' || c == '\r' || c == '\0') break;
    text += c;
  }
  return text;
}

bool AllPrintable(std::string_view bytes) {
  for (char c : bytes.substr(0, 8)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') continue;
    if (!std::isprint(u)) return false;
  }
  return true;
}

std::uint16_t ReadHalf(const unsigned char* bytes, bool little_endian) {
  return little_endian ? static_cast<std::uint16_t>(bytes[0] | (bytes[1] << 8))
                       : static_cast<std::uint16_t>((bytes[0] << 8) | bytes[1]);
}

}  // namespace

std::string DescribeNonElfContent(std::string_view bytes) {
  if (bytes.empty()) return "empty file";
  if (StartsWith(bytes, "#!")) return "starts with '#!'";
  if (StartsWith(bytes, "!<arch>\n")) {
    return "a static library archive ('!<arch>'); link its objects into a shared library";
  }
  // Linker scripts stand in for shared libraries in the build tree (libc.so is one), so a
  // plugin path ending in .so may well be one.
  if (StartsWith(bytes, "/* GNU ld script") || StartsWith(bytes, "GROUP") ||
      StartsWith(bytes, "INPUT")) {
    return "a GNU ld linker script, not a shared library";
  }
  if (StartsWith(bytes, "MZ")) return "a Windows PE/DLL file ('MZ')";
  if (bytes.size() >= 4) {
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint32_t big = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) |
                              (std::uint32_t{b[2]} << 8) | b[3];
    if (big == 0xfeedfaceu || big == 0xfeedfacfu || big == 0xcefaedfeu || big == 0xcffaedfeu ||
        big == 0xcafebabeu) {
      return "a Mach-O file (macOS)";
    }
  }
  if (AllPrintable(bytes)) return "starts with '" + PrintablePrefix(bytes) + "'";
  std::string hex = "starts with bytes";
  for (char c : bytes.substr(0, 4)) {
    std::array<char, 4> byte{};
    std::snprintf(byte.data(), byte.size(), "%02x", static_cast<unsigned char>(c));
    hex += ' ';
    hex += byte.data();
  }
  return hex;
}

Result<ElfHeaderInfo> ReadElfHeader(const std::filesystem::path& path) {
  auto fd = OpenRegularFile(path);
  if (!fd) return fd.error();
  // 64 bytes covers the whole Elf64_Ehdr; e_type and e_machine sit at 16 and 18 in both classes.
  std::array<unsigned char, sizeof(Elf64_Ehdr)> bytes{};
  std::size_t have = 0;
  while (have < bytes.size()) {
    const ssize_t got = ::read(fd->get(), bytes.data() + have, bytes.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return LoaderError{LoaderErrorKind::kReadFailed, path.string(),
                         std::string("cannot read: ") + std::strerror(errno)};
    }
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  const std::string_view content(reinterpret_cast<const char*>(bytes.data()), have);
  if (have < SELFMAG || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) {
    return LoaderError{LoaderErrorKind::kNotElf, path.string(),
                       "not an ELF file (" + DescribeNonElfContent(content) + ")"};
  }
  ElfHeaderInfo header;
  switch (bytes[EI_CLASS]) {
    case ELFCLASS32: header.elf_class = ElfClass::k32; break;
    case ELFCLASS64: header.elf_class = ElfClass::k64; break;
    default:
      return LoaderError{
          LoaderErrorKind::kMalformedElf, path.string(),
          "malformed ELF file (invalid EI_CLASS " + std::to_string(bytes[EI_CLASS]) + ")"};
  }
  switch (bytes[EI_DATA]) {
    case ELFDATA2LSB: header.little_endian = true; break;
    case ELFDATA2MSB: header.little_endian = false; break;
    default:
      return LoaderError{
          LoaderErrorKind::kMalformedElf, path.string(),
          "malformed ELF file (invalid EI_DATA " + std::to_string(bytes[EI_DATA]) + ")"};
  }
  const std::size_t header_size =
      header.elf_class == ElfClass::k64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (have < header_size) {
    return LoaderError{LoaderErrorKind::kMalformedElf, path.string(),
                       "truncated ELF file (" + std::to_string(have) +
                           " bytes; the ELF header alone needs " + std::to_string(header_size) +
                           ")"};
  }
  header.type = ReadHalf(bytes.data() + 16, header.little_endian);
  header.machine = ReadHalf(bytes.data() + 18, header.little_endian);
  return header;
}

std::optional<LoaderError> CheckMatchesThisProcess(const std::filesystem::path& path,
                                                   const ElfHeaderInfo& header) {
  const ProcessAbi abi = ThisProcessAbi();
  const auto bits = [](ElfClass c) { return c == ElfClass::k64 ? "64-bit" : "32-bit"; };
  if (header.elf_class != abi.elf_class) {
    return LoaderError{LoaderErrorKind::kWrongClass, path.string(),
                       std::string(bits(header.elf_class)) + " ELF file (" +
                           std::string(ElfClassName(header.elf_class)) + "), this harness is " +
                           bits(abi.elf_class) + " and can only load " + bits(abi.elf_class) +
                           " plugins"};
  }
  if (header.little_endian != abi.little_endian) {
    const auto order = [](bool little) { return little ? "little-endian" : "big-endian"; };
    return LoaderError{LoaderErrorKind::kWrongByteOrder, path.string(),
                       std::string(order(header.little_endian)) + " ELF file, this harness runs " +
                           order(abi.little_endian)};
  }
  if (header.machine != abi.machine) {
    return LoaderError{LoaderErrorKind::kWrongMachine, path.string(),
                       "built for " + MachineName(header.machine) + ", this harness runs on " +
                           MachineName(abi.machine)};
  }
  return std::nullopt;
}

}  // namespace conformance::loader
