#include "temp_dir.h"

#include <stdlib.h>

#include <fstream>
#include <stdexcept>
#include <string>

namespace conformance::loader::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "loader_test_XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void WriteFile(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void CopyAndPatch(const std::filesystem::path& from, const std::filesystem::path& to,
                  std::size_t offset, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
  std::fstream file(to, std::ios::binary | std::ios::in | std::ios::out);
  file.seekp(static_cast<std::streamoff>(offset));
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  if (!file) throw std::runtime_error("cannot patch " + to.string());
}

}  // namespace conformance::loader::testing
