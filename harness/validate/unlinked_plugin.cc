#include "validate/unlinked_plugin.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

namespace conformance::validate {
namespace {

constexpr std::array<std::string_view, 4> kTensorFlowLibraries = {
    "libtensorflow_framework.so.2", "_pywrap_tensorflow_internal.so", "libtensorflow_cc.so.2",
    "libtensorflow.so.2"};

// The dynamic loader's default folders on Debian's x86-64 (ld.so.conf.d and the trusted
// directories); a DT_NEEDED found there is a system library.
constexpr std::array<std::string_view, 6> kSystemFolders = {"/lib/x86_64-linux-gnu",
                                                            "/usr/lib/x86_64-linux-gnu",
                                                            "/lib64",
                                                            "/usr/lib64",
                                                            "/lib",
                                                            "/usr/lib"};

bool IsSystemLibrary(const std::string& name) {
  if (name.find('/') != std::string::npos) return false;
  std::error_code ignored;
  return std::any_of(kSystemFolders.begin(), kSystemFolders.end(), [&](std::string_view folder) {
    return std::filesystem::exists(std::filesystem::path(folder) / name, ignored);
  });
}

}  // namespace

bool LinksNoTensorFlowLibrary(const std::vector<std::string>& needed) {
  return std::all_of(needed.begin(), needed.end(), [](const std::string& name) {
    return std::find(kTensorFlowLibraries.begin(), kTensorFlowLibraries.end(), name) ==
               kTensorFlowLibraries.end() &&
           IsSystemLibrary(name);
  });
}

}  // namespace conformance::validate
