// Build tool for the wrong_machine variant: copies an ELF file and rewrites its e_machine, so
// a perfectly good x86-64 plugin claims to be built for another architecture.
//   set_elf_machine <input.so> <output.so> <machine number, e.g. 183 for AArch64>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kMachineOffset = 18;  // e_machine: Elf32_Half/Elf64_Half after e_type

int Fail(const std::string& message) {
  std::fprintf(stderr, "set_elf_machine: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return Fail("usage: set_elf_machine <input> <output> <machine>");
  const std::string input = argv[1];
  const std::string output = argv[2];
  const unsigned long machine = std::strtoul(argv[3], nullptr, 0);
  if (machine > 0xffff) return Fail("machine number out of range");

  std::ifstream in(input, std::ios::binary);
  if (!in) return Fail("cannot read " + input);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 64 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' ||
      bytes[3] != 'F') {
    return Fail(input + " is not an ELF file");
  }
  const bool little_endian = bytes[5] == 1;  // EI_DATA: ELFDATA2LSB
  const auto low = static_cast<char>(machine & 0xff);
  const auto high = static_cast<char>((machine >> 8) & 0xff);
  bytes[kMachineOffset] = little_endian ? low : high;
  bytes[kMachineOffset + 1] = little_endian ? high : low;

  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) return Fail("cannot write " + output);
  return 0;
}
