#include "bundled_reference.h"

#include <system_error>

namespace conformance::bench {

std::filesystem::path BundledReferencePlugin() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path beside =
        executable.parent_path().parent_path() / "lib" / "libreference_plugin.so";
    if (std::filesystem::exists(beside, error)) return beside;
  }
  // The build tree's copy (REFERENCE_PLUGIN_PATH is set by CMake to the target's file).
  return REFERENCE_PLUGIN_PATH;
}

}  // namespace conformance::bench
