#include "loader/loaded_objects.h"

#include <link.h>

#include "loader/elf_file.h"

namespace conformance::loader {

namespace {

int CollectPath(struct dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto* paths = static_cast<std::vector<std::filesystem::path>*>(data);
  const char* name = info->dlpi_name;
  // The first object reported is the main program, with an empty name.
  if (name == nullptr || name[0] == '\0') {
    if (paths->empty()) paths->emplace_back("/proc/self/exe");
    return 0;
  }
  paths->emplace_back(name);
  return 0;
}

}  // namespace

std::vector<LoadedObject> LoadedObjects() {
  std::vector<std::filesystem::path> paths;
  dl_iterate_phdr(CollectPath, &paths);
  // The sonames are read from disk after the iteration: dl_iterate_phdr holds the loader lock
  // while it calls back, and reading files there would only lengthen that.
  std::vector<LoadedObject> objects;
  ElfReadOptions options;
  options.require_loadable_here = false;
  options.read_dynamic_symbols = false;
  for (auto& path : paths) {
    LoadedObject object;
    object.path = std::move(path);
    auto file = ReadElfFile(object.path, options);
    if (!file) {
      // The vDSO is reported under a name ("linux-vdso.so.1") that is not a file.
      if (object.path.is_relative()) continue;
    } else {
      object.soname = file->soname;
    }
    objects.push_back(std::move(object));
  }
  return objects;
}

std::optional<LoadedObject> FindLoadedObject(const std::vector<LoadedObject>& objects,
                                             std::string_view name) {
  for (const LoadedObject& object : objects) {
    if (object.soname && *object.soname == name) return object;
  }
  for (const LoadedObject& object : objects) {
    if (object.path.native() == name || object.path.filename().native() == name) return object;
  }
  return std::nullopt;
}

}  // namespace conformance::loader
