#include "report/report_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>

namespace conformance {
namespace {

bool UnderSystemTree(const std::string& path) {
  return path.starts_with("/dev/") || path.starts_with("/proc/");
}

// The final target of a symlink chain; the path itself when it is not a link. A dangling link
// resolves to the path it names, so the report is created there and the link then works.
std::string FinalTarget(const std::string& path) {
  std::filesystem::path current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current.string();
    char buffer[PATH_MAX];
    const ssize_t length = readlink(current.c_str(), buffer, sizeof buffer - 1);
    if (length < 0) return current.string();
    const std::filesystem::path target(std::string(buffer, static_cast<std::size_t>(length)));
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  throw FileWriteError(path, ELOOP);
}

void WriteAll(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t written = write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw FileWriteError(path, errno);
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
}

// A device, FIFO or terminal: written in place, never replaced.
void WriteDirectly(const std::string& path, std::string_view content) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw FileWriteError(path, errno);
  try {
    WriteAll(fd, content, path);
  } catch (...) {
    close(fd);
    throw;
  }
  if (close(fd) != 0) throw FileWriteError(path, errno);
}

}  // namespace

void WriteReportFile(const std::string& path, std::string_view content,
                     std::ostream& standard_output) {
  if (path == kStandardOutputPath) {
    standard_output.write(content.data(), static_cast<std::streamsize>(content.size()));
    standard_output.flush();
    if (!standard_output) throw FileWriteError("<standard output>", errno != 0 ? errno : EIO);
    return;
  }
  struct stat info {};
  const bool exists = stat(path.c_str(), &info) == 0;  // follows links
  if ((exists && !S_ISREG(info.st_mode)) || UnderSystemTree(path)) {
    WriteDirectly(path, content);
    return;
  }
  WriteFileAtomically(FinalTarget(path), content);
}

std::optional<std::string> ProblemWithReportPath(const std::string& path) {
  if (path.empty()) return "an empty file name (use '-' for standard output)";
  if (path == kStandardOutputPath) return std::nullopt;
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
    return std::nullopt;  // a device or FIFO: written directly
  }
  return ProblemWritingTo(FinalTarget(path));
}

bool SameReportTarget(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (a == kStandardOutputPath || b == kStandardOutputPath) return false;
  std::error_code error;
  const auto canonical_a = std::filesystem::weakly_canonical(a, error);
  if (error) return false;
  const auto canonical_b = std::filesystem::weakly_canonical(b, error);
  return !error && canonical_a == canonical_b;
}

}  // namespace conformance
