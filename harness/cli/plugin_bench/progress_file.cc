#include "progress_file.h"

#include <sys/mman.h>
#include <unistd.h>

namespace conformance::bench {

ProgressFile::ProgressFile() : fd_(memfd_create("plugin_bench_family", MFD_CLOEXEC)) {}

ProgressFile::~ProgressFile() {
  if (fd_ >= 0) close(fd_);
}

std::string ProgressFile::Read() const {
  std::string text;
  if (fd_ < 0) return text;
  char buffer[4096];
  for (off_t offset = 0;;) {
    const ssize_t got = pread(fd_, buffer, sizeof(buffer), offset);
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    offset += got;
  }
  return text;
}

}  // namespace conformance::bench
