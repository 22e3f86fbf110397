#pragma once
// Report files are written atomically: a reader (CI collecting artifacts, a dashboard
// polling the path) sees either the previous file or the complete new one, never a
// truncated report — even if the harness is killed mid-write. The text goes to a hidden
// temporary file in the same directory (rename() is atomic only within a file system),
// is fsync()ed, then renamed over the target; the directory is fsync()ed so the rename
// itself survives a power cut.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace conformance {

class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::filesystem::path& path, int error_number);
  const std::filesystem::path& path() const { return path_; }
  int error_number() const { return error_number_; }

 private:
  std::filesystem::path path_;
  int error_number_;
};

// Throws FileWriteError ("cannot write 'PATH': <strerror>"); no temporary file remains.
void WriteFileAtomically(const std::filesystem::path& path, std::string_view content);

// Checked before a run starts, so a typo in --json fails in a second, not after an hour
// of testing: a message when the file's directory does not exist or is not a directory,
// or the path itself is a directory.
std::optional<std::string> ProblemWritingTo(const std::filesystem::path& path);

}  // namespace conformance
