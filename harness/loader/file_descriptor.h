#pragma once
// An owned file descriptor, and opening a file for inspection with the error texts every
// loader component uses (missing file, directory, permission, not a regular file).
#include <filesystem>
#include <utility>

#include "loader/result.h"

namespace conformance::loader {

class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Opens a regular file read-only. Errors: kNoSuchFile, kIsDirectory, kPermissionDenied,
// kReadFailed (anything else, including FIFOs and devices, which we refuse to read so that
// inspecting a plugin path can never block).
Result<FileDescriptor> OpenRegularFile(const std::filesystem::path& path);

}  // namespace conformance::loader
