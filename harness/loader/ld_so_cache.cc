#include "loader/ld_so_cache.h"

#include <glob.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

namespace conformance::loader {

namespace {

// Layout of the format, from glibc's documented sysdeps/generic/dl-cache.h structures:
//   legacy header: "ld.so-1.7.0" (11 bytes), pad to 12, u32 nlibs, then nlibs entries of
//                  {i32 flags, u32 key, u32 value} (12 bytes each);
//   new header:    "glibc-ld.so.cache" "1.1" (20 bytes), u32 nlibs, u32 len_strings,
//                  u8 byte-order flags, 3 pad, u32 extension_offset, 3 x u32 unused (48 bytes),
//                  then nlibs entries of {i32 flags, u32 key, u32 value, u32 osversion,
//                  u64 hwcap} (24 bytes each). key/value are offsets of NUL-terminated strings
//                  counted from the start of the new header.
constexpr std::string_view kLegacyMagic = "ld.so-1.7.0";
constexpr std::string_view kNewMagic = "glibc-ld.so.cache1.1";
constexpr std::size_t kLegacyHeaderSize = 16;
constexpr std::size_t kLegacyEntrySize = 12;
constexpr std::size_t kNewHeaderSize = 48;
constexpr std::size_t kNewEntrySize = 24;
// The new table is aligned like its widest member (the u64 hwcap) when it follows the legacy one.
constexpr std::size_t kNewHeaderAlignment = 8;
constexpr std::uint8_t kByteOrderLittle = 2;
constexpr std::uint8_t kByteOrderBig = 3;

bool HostIsLittleEndian() { return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__; }

// ldconfig writes the cache in the byte order of the machine it runs on.
template <typename T>
T ReadNative(std::string_view bytes, std::size_t offset) {
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

LoaderError CacheError(const std::filesystem::path& origin, const std::string& what) {
  return {LoaderErrorKind::kReadFailed, origin.string(), "unusable ld.so.cache (" + what + ")"};
}

}  // namespace

std::int32_t ExpectedCacheFlags() {
  constexpr std::int32_t kElfLibc6 = 0x0003;
#if defined(__x86_64__) && defined(__LP64__)
  return kElfLibc6 | 0x0300;  // FLAG_X8664_LIB64
#elif defined(__aarch64__)
  return kElfLibc6 | 0x0a00;  // FLAG_AARCH64_LIB64
#elif defined(__i386__)
  return kElfLibc6;
#else
  return -1;
#endif
}

Result<LdSoCache> LdSoCache::Load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return LoaderError{LoaderErrorKind::kNoSuchFile, file.string(), "cannot read the cache file"};
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return Parse(bytes, file);
}

Result<LdSoCache> LdSoCache::Parse(std::string_view bytes, const std::filesystem::path& origin) {
  std::size_t start = 0;
  if (bytes.substr(0, kLegacyMagic.size()) == kLegacyMagic) {
    if (bytes.size() < kLegacyHeaderSize) return CacheError(origin, "truncated legacy header");
    const auto legacy_count = ReadNative<std::uint32_t>(bytes, 12);
    start = kLegacyHeaderSize + std::size_t{legacy_count} * kLegacyEntrySize;
    start = (start + kNewHeaderAlignment - 1) & ~(kNewHeaderAlignment - 1);
    // A legacy-only cache (pre-2.32 ldconfig -c old) has no new table; treat it as empty
    // rather than decode a format glibc itself no longer reads.
    if (start >= bytes.size())
      return CacheError(origin, "legacy format without a glibc-ld.so.cache1.1 table");
  }
  const std::string_view table = bytes.substr(start);
  if (table.size() < kNewHeaderSize || table.substr(0, kNewMagic.size()) != kNewMagic) {
    return CacheError(origin, "no glibc-ld.so.cache1.1 header");
  }
  const std::uint8_t byte_order = static_cast<std::uint8_t>(table[28]);
  if ((byte_order == kByteOrderLittle && !HostIsLittleEndian()) ||
      (byte_order == kByteOrderBig && HostIsLittleEndian())) {
    return CacheError(origin, "written for the other byte order");
  }
  const auto count = ReadNative<std::uint32_t>(table, 20);
  if (kNewHeaderSize + std::size_t{count} * kNewEntrySize > table.size()) {
    return CacheError(origin, "entry table runs past the end of the file");
  }
  const auto string_at = [&](std::uint32_t offset) -> std::optional<std::string> {
    if (offset >= table.size()) return std::nullopt;
    const std::size_t end = table.find('\0', offset);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(table.substr(offset, end - offset));
  };

  LdSoCache cache;
  cache.entries_.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = kNewHeaderSize + std::size_t{i} * kNewEntrySize;
    LdSoCacheEntry entry;
    entry.flags = ReadNative<std::int32_t>(table, at);
    auto key = string_at(ReadNative<std::uint32_t>(table, at + 4));
    auto value = string_at(ReadNative<std::uint32_t>(table, at + 8));
    entry.hwcap = ReadNative<std::uint64_t>(table, at + 16);
    if (!key || !value) {
      return CacheError(origin, "entry " + std::to_string(i) + " points outside the file");
    }
    entry.soname = std::move(*key);
    entry.path = std::move(*value);
    cache.entries_.push_back(std::move(entry));
  }
  return cache;
}

std::vector<std::filesystem::path> LdSoCache::Lookup(std::string_view soname) const {
  const std::int32_t expected = ExpectedCacheFlags();
  std::vector<std::filesystem::path> baseline;
  std::vector<std::filesystem::path> variants;
  for (const LdSoCacheEntry& entry : entries_) {
    if (entry.soname != soname) continue;
    if (expected != -1 && entry.flags != expected) continue;
    (entry.hwcap == 0 ? baseline : variants).push_back(entry.path);
  }
  baseline.insert(baseline.end(), variants.begin(), variants.end());
  return baseline;
}

namespace {

void ReadLdSoConfInto(const std::filesystem::path& file, int depth,
                      std::vector<std::filesystem::path>& directories) {
  // ldconfig itself bounds include nesting; a cycle in a broken configuration must not hang us.
  if (depth > 16) return;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (first == "include") {
      std::string pattern;
      while (words >> pattern) {
        std::filesystem::path full = pattern;
        if (full.is_relative()) full = file.parent_path() / full;
        glob_t matches{};
        if (::glob(full.c_str(), 0, nullptr, &matches) == 0) {
          for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
            ReadLdSoConfInto(matches.gl_pathv[i], depth + 1, directories);
          }
        }
        ::globfree(&matches);
      }
      continue;
    }
    if (first == "hwcap") continue;  // obsolete directive, no directory
    // Old syntax allowed "dir=libtype"; the type is irrelevant for finding files.
    std::string directory = line.substr(line.find_first_not_of(" \t"));
    directory = directory.substr(0, directory.find('='));
    directory.erase(directory.find_last_not_of(" \t\r") + 1);
    if (!directory.empty()) directories.emplace_back(directory);
  }
}

}  // namespace

std::vector<std::filesystem::path> ReadLdSoConf(const std::filesystem::path& file) {
  std::vector<std::filesystem::path> directories;
  ReadLdSoConfInto(file, 0, directories);
  return directories;
}

}  // namespace conformance::loader
