#include "cli/plugin_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "loader/elf_file.h"

namespace conformance {

std::optional<std::string> PluginFileProblem(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return "'" + path + "': " + std::strerror(errno);
  if (S_ISDIR(info.st_mode)) return "'" + path + "' is a directory";
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "'" + path + "': " + std::strerror(errno);
  unsigned char magic[4] = {};
  const ssize_t got = read(fd, magic, sizeof magic);
  close(fd);
  if (got != static_cast<ssize_t>(sizeof magic) || std::memcmp(magic,
                                                               "\x7f"
                                                               "ELF",
                                                               4) != 0) {
    return "'" + path + "' is not an ELF shared library";
  }
  return std::nullopt;
}

bool IsCpuKernelPluginFile(const std::string& path) {
  loader::ElfReadOptions options;
  options.require_loadable_here = false;
  const auto file = loader::ReadElfFile(path, options);
  if (!file.ok()) return false;
  return file.value().IsExported("TF_InitKernel") && !file.value().IsExported("SE_InitPlugin") &&
         !file.value().IsExported("TFNPD_InitPlugin");
}

}  // namespace conformance
