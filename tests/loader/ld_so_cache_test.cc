#include "loader/ld_so_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Entry {
  std::string soname;
  std::string path;
  std::int32_t flags;
  std::uint64_t hwcap = 0;
};

template <typename T>
void Put(std::string& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// Writes a cache in the glibc-ld.so.cache1.1 layout, optionally after a legacy table.
std::string BuildCache(const std::vector<Entry>& entries, std::size_t legacy_entries = 0) {
  std::string prefix;
  if (legacy_entries > 0) {
    prefix.assign(16 + legacy_entries * 12, '\0');
    std::memcpy(prefix.data(), "ld.so-1.7.0", 11);
    Put<std::uint32_t>(prefix, 12, static_cast<std::uint32_t>(legacy_entries));
    prefix.resize((prefix.size() + 7) & ~std::size_t{7}, '\0');
  }
  std::string table(48 + entries.size() * 24, '\0');
  std::memcpy(table.data(), "glibc-ld.so.cache1.1", 20);
  Put<std::uint32_t>(table, 20, static_cast<std::uint32_t>(entries.size()));
  table[28] = 2;  // little-endian
  std::string strings;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t at = 48 + i * 24;
    Put<std::int32_t>(table, at, entries[i].flags);
    Put<std::uint32_t>(table, at + 4, static_cast<std::uint32_t>(table.size() + strings.size()));
    strings += entries[i].soname + '\0';
    Put<std::uint32_t>(table, at + 8, static_cast<std::uint32_t>(table.size() + strings.size()));
    strings += entries[i].path + '\0';
    Put<std::uint64_t>(table, at + 16, entries[i].hwcap);
  }
  Put<std::uint32_t>(table, 24, static_cast<std::uint32_t>(strings.size()));
  return prefix + table + strings;
}

constexpr std::int32_t kX8664 = 0x0303;
constexpr std::int32_t kI386 = 0x0003;

TEST(LdSoCache, ParsesEntriesAndFiltersByAbi) {
  const std::string bytes = BuildCache({
      {"libfoo.so.1", "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libfoo.so.1", kX8664,
       1ull << 62},
      {"libfoo.so.1", "/usr/lib/i386-linux-gnu/libfoo.so.1", kI386},
      {"libfoo.so.1", "/usr/lib/x86_64-linux-gnu/libfoo.so.1", kX8664},
      {"libbar.so", "/usr/lib/x86_64-linux-gnu/libbar.so", kX8664},
  });
  auto cache = LdSoCache::Parse(bytes, "synthetic");
  ASSERT_TRUE(cache.ok()) << cache.error().Describe();
  EXPECT_EQ(cache->entries().size(), 4u);
  // Baseline before the hwcaps variant; the i386 entry is not for this process.
  EXPECT_THAT(cache->Lookup("libfoo.so.1"),
              ElementsAre("/usr/lib/x86_64-linux-gnu/libfoo.so.1",
                          "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libfoo.so.1"));
  EXPECT_THAT(cache->Lookup("libbaz.so"), IsEmpty());
}

TEST(LdSoCache, SkipsALegacyTable) {
  const std::string bytes = BuildCache({{"libfoo.so.1", "/lib/libfoo.so.1", kX8664}}, 3);
  auto cache = LdSoCache::Parse(bytes, "synthetic");
  ASSERT_TRUE(cache.ok()) << cache.error().Describe();
  EXPECT_THAT(cache->Lookup("libfoo.so.1"), ElementsAre("/lib/libfoo.so.1"));
}

TEST(LdSoCache, RejectsDamagedFiles) {
  EXPECT_FALSE(LdSoCache::Parse("not a cache", "x").ok());
  std::string truncated = BuildCache({{"libfoo.so.1", "/lib/libfoo.so.1", kX8664}});
  truncated.resize(60);
  auto cache = LdSoCache::Parse(truncated, "truncated.cache");
  ASSERT_FALSE(cache.ok());
  EXPECT_THAT(cache.error().Describe(), HasSubstr("truncated.cache: unusable ld.so.cache"));
  std::string dangling = BuildCache({{"libfoo.so.1", "/lib/libfoo.so.1", kX8664}});
  Put<std::uint32_t>(dangling, 48 + 8, 100000);
  EXPECT_FALSE(LdSoCache::Parse(dangling, "x").ok());
}

TEST(LdSoCache, ReadsTheSystemCache) {
  if (!std::filesystem::exists("/etc/ld.so.cache")) GTEST_SKIP() << "no /etc/ld.so.cache";
  auto cache = LdSoCache::Load();
  ASSERT_TRUE(cache.ok()) << cache.error().Describe();
  const auto paths = cache->Lookup("libc.so.6");
  ASSERT_FALSE(paths.empty());
  EXPECT_TRUE(std::filesystem::exists(paths.front())) << paths.front();
}

TEST(ReadLdSoConf, FollowsIncludes) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir / "conf.d");
  testing::WriteFile(dir / "ld.so.conf", "include conf.d/*.conf\n/first # trailing comment\n");
  testing::WriteFile(dir / "conf.d" / "a.conf", "/a1\n\n  /a2  \n");
  testing::WriteFile(dir / "conf.d" / "b.conf", "hwcap 1 foo\n/b=libc6\n");
  EXPECT_THAT(ReadLdSoConf(dir / "ld.so.conf"), ElementsAre("/a1", "/a2", "/b", "/first"));
  EXPECT_THAT(ReadLdSoConf(dir / "missing.conf"), IsEmpty());
}

}  // namespace
}  // namespace conformance::loader
