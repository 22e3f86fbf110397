#include "bundled_reference.h"

#include <system_error>

// Relative to the executable's folder: where the install layout puts it
// (cmake/packaging/Install.cmake sets it), then where the build tree has it.
#ifndef REFERENCE_PLUGIN_FROM_EXECUTABLE
#define REFERENCE_PLUGIN_FROM_EXECUTABLE "../lib/libreference_plugin.so"
#endif
constexpr const char* kReferenceBesideExecutable[] = {REFERENCE_PLUGIN_FROM_EXECUTABLE,
                                                      "../lib/libreference_plugin.so"};

namespace conformance::bench {

std::filesystem::path BundledReferencePlugin() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  for (const char* relative : kReferenceBesideExecutable) {
    if (error) break;
    std::filesystem::path beside = (executable.parent_path() / relative).lexically_normal();
    if (std::filesystem::exists(beside, error)) return beside;
  }
  // The build tree's copy (REFERENCE_PLUGIN_PATH is set by CMake to the target's file).
  return REFERENCE_PLUGIN_PATH;
}

}  // namespace conformance::bench
