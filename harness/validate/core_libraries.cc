#include "validate/core_libraries.h"

#include <dlfcn.h>

#include "loader/elf_file.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::validate {

std::filesystem::path CoreLibraryPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&TF_NewStatus), &info) == 0 || info.dli_fname == nullptr)
    return {};
  return std::filesystem::canonical(info.dli_fname);
}

std::string PreloadCoreLibraries() {
  static const std::string result = [] {
    const auto pywrap = CoreLibraryPath().parent_path() / kPywrapSoname;
    if (dlopen(pywrap.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
      return std::string("cannot preload ") + pywrap.string() + ": " + dlerror();
    }
    return std::string();
  }();
  return result;
}

const std::set<std::string, std::less<>>& TensorFlowSonames() {
  static const std::set<std::string, std::less<>> sonames = {kFrameworkSoname, kPywrapSoname,
                                                             "libtensorflow_cc.so.2"};
  return sonames;
}

const std::set<std::string, std::less<>>& CoreExports() {
  static const std::set<std::string, std::less<>> exports = [] {
    auto symbols = loader::ExportedSymbols(CoreLibraryPath());
    return symbols.ok() ? symbols.value() : std::set<std::string, std::less<>>{};
  }();
  return exports;
}

}  // namespace conformance::validate
