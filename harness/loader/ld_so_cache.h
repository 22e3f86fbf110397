#pragma once
// The dynamic loader's system-wide library index, /etc/ld.so.cache, as written by ldconfig in
// the "glibc-ld.so.cache1.1" format (optionally preceded by the legacy "ld.so-1.7.0" table),
// and the /etc/ld.so.conf it is built from, which serves as the fallback when the cache is
// missing or unreadable.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "loader/result.h"

namespace conformance::loader {

struct LdSoCacheEntry {
  std::string soname;
  std::filesystem::path path;
  std::int32_t flags = 0;   // library type and ABI (e.g. 0x0303 = libc6, x86-64)
  std::uint64_t hwcap = 0;  // non-zero: an optimized variant (glibc-hwcaps subdirectory)
};

class LdSoCache {
 public:
  static Result<LdSoCache> Load(const std::filesystem::path& file = "/etc/ld.so.cache");
  // Parses cache bytes; `origin` names them in errors.
  static Result<LdSoCache> Parse(std::string_view bytes, const std::filesystem::path& origin);

  // Paths recorded for `soname` with flags this process's loader accepts: baseline entries
  // first, then optimized (hwcap) variants; cache order within each group.
  std::vector<std::filesystem::path> Lookup(std::string_view soname) const;

  const std::vector<LdSoCacheEntry>& entries() const { return entries_; }

 private:
  std::vector<LdSoCacheEntry> entries_;
};

// The cache flags value the loader of this process accepts (_dl_cache_check_flags), or -1 when
// this architecture is not known here (then every entry is offered and the ELF check decides).
std::int32_t ExpectedCacheFlags();

// Directories listed in an ld.so.conf file, following "include" globs (relative to the
// including file's directory), in order. Missing files yield no directories.
std::vector<std::filesystem::path> ReadLdSoConf(
    const std::filesystem::path& file = "/etc/ld.so.conf");

}  // namespace conformance::loader
