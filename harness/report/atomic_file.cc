#include "report/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace conformance {
namespace {

std::filesystem::path DirectoryOf(const std::filesystem::path& path) {
  const std::filesystem::path parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// Owns the temporary file until it has been renamed into place; removes it otherwise.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    const std::string base = "." + target.filename().string() + ".tmp." + std::to_string(getpid());
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = DirectoryOf(target) / (base + "." + std::to_string(counter++));
      // 0666 minus the umask, like any file a program creates (mkstemp would force 0600).
      fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      created_ = fd_ >= 0;
      if (created_ || errno != EEXIST) return;
    }
  }
  ~TempFile() {
    if (fd_ >= 0) close(fd_);
    if (created_ && !renamed_) unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool opened() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

  // Closes the descriptor; false (with errno) when close() reports a deferred error.
  bool Close() {
    const int fd = fd_;
    fd_ = -1;
    return close(fd) == 0;
  }
  void MarkRenamed() { renamed_ = true; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool created_ = false;  // only a file this object created may be removed
  bool renamed_ = false;
};

bool WriteAll(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t written = write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

void SyncDirectory(const std::filesystem::path& directory) {
  // Best effort: some file systems refuse fsync on directories; the file is complete
  // and renamed either way.
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  fsync(fd);
  close(fd);
}

}  // namespace

FileWriteError::FileWriteError(const std::filesystem::path& path, int error_number)
    : std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(error_number)),
      path_(path),
      error_number_(error_number) {}

void WriteFileAtomically(const std::filesystem::path& path, std::string_view content) {
  if (path.filename().empty()) throw FileWriteError(path, EISDIR);
  TempFile temp(path);
  if (!temp.opened()) {
    // Creating the temporary file failed: report the error against the path the user
    // named, which is what they can fix (usually its directory is missing).
    throw FileWriteError(path, errno);
  }
  if (!WriteAll(temp.fd(), content) || fsync(temp.fd()) != 0) throw FileWriteError(path, errno);
  if (!temp.Close()) throw FileWriteError(path, errno);
  if (rename(temp.path().c_str(), path.c_str()) != 0) throw FileWriteError(path, errno);
  temp.MarkRenamed();
  SyncDirectory(DirectoryOf(path));
}

std::optional<std::string> ProblemWritingTo(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path directory = DirectoryOf(path);
  if (path.filename().empty() || std::filesystem::is_directory(path, error)) {
    return "'" + path.string() + "' is a directory, not a file name";
  }
  if (!std::filesystem::exists(directory, error)) {
    return "cannot write '" + path.string() + "': directory '" + directory.string() +
           "' does not exist";
  }
  if (!std::filesystem::is_directory(directory, error)) {
    return "cannot write '" + path.string() + "': '" + directory.string() + "' is not a directory";
  }
  if (access(directory.c_str(), W_OK) != 0) {
    return "cannot write '" + path.string() + "': directory '" + directory.string() +
           "': " + std::strerror(errno);
  }
  return std::nullopt;
}

}  // namespace conformance
