#include "loader/file_descriptor.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace conformance::loader {

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

LoaderError OpenError(const std::filesystem::path& path, int error_number) {
  switch (error_number) {
    case ENOENT: return {LoaderErrorKind::kNoSuchFile, path.string(), "no such file"};
    case ENOTDIR:
      return {LoaderErrorKind::kNoSuchFile, path.string(),
              "no such file (a component of the path is not a directory)"};
    case EACCES:
    case EPERM:
      return {LoaderErrorKind::kPermissionDenied, path.string(),
              "permission denied (the file cannot be opened for reading)"};
    case EISDIR:
      return {LoaderErrorKind::kIsDirectory, path.string(), "is a directory, not a shared library"};
    default:
      return {LoaderErrorKind::kReadFailed, path.string(),
              std::string("cannot open: ") + std::strerror(error_number)};
  }
}

const char* FileKindName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a special file";
}

}  // namespace

Result<FileDescriptor> OpenRegularFile(const std::filesystem::path& path) {
  // O_NONBLOCK so that opening a FIFO by mistake does not hang the harness; it has no effect
  // on reads from a regular file.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return OpenError(path, errno);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return OpenError(path, errno);
  if (S_ISDIR(info.st_mode)) return OpenError(path, EISDIR);
  if (!S_ISREG(info.st_mode)) {
    return LoaderError{LoaderErrorKind::kReadFailed, path.string(),
                       std::string("is ") + FileKindName(info.st_mode) + ", not a shared library"};
  }
  return fd;
}

}  // namespace conformance::loader
