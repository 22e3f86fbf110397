#pragma once
// The shared objects already mapped into this process. The dynamic loader reuses one of them
// for a DT_NEEDED entry that matches its soname instead of searching the disk, which is how a
// harness that preloads its core under TensorFlow's sonames satisfies a plugin's dependencies.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conformance::loader {

struct LoadedObject {
  std::filesystem::path path;         // as the loader recorded it (main program: /proc/self/exe)
  std::optional<std::string> soname;  // DT_SONAME read from the file, when it has one
};

// Snapshot of dl_iterate_phdr, in load order. The vDSO (no file) is left out.
std::vector<LoadedObject> LoadedObjects();

// The loaded object the loader would reuse for DT_NEEDED `name`: one whose DT_SONAME equals
// it, or whose recorded path or file name does (the loader also remembers the names under
// which an object was requested, which the file name approximates).
std::optional<LoadedObject> FindLoadedObject(const std::vector<LoadedObject>& objects,
                                             std::string_view name);

}  // namespace conformance::loader
