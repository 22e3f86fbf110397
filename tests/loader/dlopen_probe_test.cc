// A file cut short: the examination says "truncated", and dlopen's own verdict is taken in a
// child that may die of it without taking the caller along.
#include "loader/dlopen_probe.h"

#include <dlfcn.h>
#include <elf.h>

#include <cstring>

#include <fstream>
#include <iterator>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loader/elf_file.h"
#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// The good plugin cut right after the start of its last loadable segment, so that segment's
// bytes are missing: the loader maps it and faults reading it.
std::filesystem::path TruncatedCopy(const testing::TempDir& dir) {
  const std::string bytes = ReadBytes(LOADER_GOOD_PLUGIN);
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  std::uint64_t last_load = 0;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment,
                bytes.data() + header.e_phoff + static_cast<std::size_t>(i) * header.e_phentsize,
                sizeof(segment));
    if (segment.p_type == PT_LOAD && segment.p_filesz > 0) last_load = segment.p_offset;
  }
  auto path = dir / "truncated.so";
  testing::WriteFile(path, std::string_view(bytes).substr(0, last_load + 16));
  return path;
}

TEST(ReadElfFile, TruncatedFileSaysSoAndWhere) {
  const testing::TempDir dir;
  const auto elf = ReadElfFile(TruncatedCopy(dir));
  ASSERT_FALSE(elf.ok());
  EXPECT_EQ(elf.error().kind, LoaderErrorKind::kMalformedElf);
  EXPECT_THAT(elf.error().message, StartsWith("truncated ELF file ("));
  EXPECT_THAT(elf.error().message, HasSubstr("loadable segment"));
}

TEST(ProbeDlopenInChild, ACrashingDlopenIsDescribedAndThisProcessSurvives) {
  const testing::TempDir dir;
  const DlopenProbe probe = ProbeDlopenInChild(TruncatedCopy(dir));
  EXPECT_FALSE(probe.loaded);
  // Which of the two depends on where the cut falls and on the glibc version; both are
  // dlopen's verdict, and this process is still here to read it.
  EXPECT_TRUE(probe.message.starts_with("dlopen died of SIGBUS") ||
              probe.message.starts_with("dlopen failed: "))
      << probe.message;
}

TEST(ProbeDlopenInChild, GivesDlopensOwnErrorText) {
  const DlopenProbe probe = ProbeDlopenInChild(LOADER_NEEDS_MISSING);
  EXPECT_FALSE(probe.loaded);
  EXPECT_THAT(probe.message, StartsWith("dlopen failed: "));
  EXPECT_THAT(probe.message, HasSubstr("libdoes_not_exist_xyz.so.1"));
}

TEST(ProbeDlopenInChild, ALoadableFileLoadsInTheChildOnly) {
  const DlopenProbe probe = ProbeDlopenInChild(LOADER_GOOD_PLUGIN);
  EXPECT_TRUE(probe.loaded);
  EXPECT_EQ(probe.message, "");
  EXPECT_EQ(dlopen(LOADER_GOOD_PLUGIN, RTLD_NOW | RTLD_NOLOAD), nullptr)
      << "the probe loaded the library into the caller";
}

}  // namespace
}  // namespace conformance::loader
