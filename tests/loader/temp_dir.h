#pragma once
// Scratch files for loader tests: a directory removed with everything in it at scope exit,
// and helpers to produce damaged copies of real libraries.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace conformance::loader::testing {

class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void WriteFile(const std::filesystem::path& path, std::string_view content);
// Copies `from` to `to` and overwrites bytes at `offset` with `bytes`.
void CopyAndPatch(const std::filesystem::path& from, const std::filesystem::path& to,
                  std::size_t offset, const std::vector<std::uint8_t>& bytes);

}  // namespace conformance::loader::testing
