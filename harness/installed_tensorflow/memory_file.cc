#include "installed_tensorflow/memory_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

namespace tensorflow_driver {

int NewMemoryFile(const char* name, MemoryFileScope scope) {
  const int fd = memfd_create(name, scope == MemoryFileScope::kForkedChild ? MFD_CLOEXEC : 0);
  if (fd < 0) throw std::runtime_error("memfd_create failed");
  return fd;
}

std::string ReadAllAndClose(int fd) {
  std::string text;
  char buffer[65536];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fd);
  return text;
}

}  // namespace tensorflow_driver
