#include "validate/unhosted_imports.h"

#include <filesystem>
#include <string_view>
#include <system_error>

#include "loader/elf_file.h"
#include "validate/core_libraries.h"

namespace conformance::validate {
namespace {

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  const bool same = std::filesystem::equivalent(a, b, error);
  return !error && same;
}

}  // namespace

std::string UnhostedImport::Describe() const {
  return library + " (loaded by the plugin) imports " + symbol +
         ", a TensorFlow C API function the mock core does not implement, and links " +
         tensorflow_library +
         ", through which TensorFlow's own libraries may export it (tensorflow-cpu 2.15.1's "
         "libtensorflow_cc.so.2 does); whether this TensorFlow does cannot be known without it";
}

std::optional<UnhostedImport> FindUnhostedImport(const std::string& dlerror_text,
                                                 const std::string& plugin_path) {
  constexpr std::string_view kUndefined = ": undefined symbol: ";
  const auto at = dlerror_text.rfind(kUndefined);
  if (at == std::string::npos) return std::nullopt;
  UnhostedImport found;
  found.library = dlerror_text.substr(0, at);
  found.symbol = dlerror_text.substr(at + kUndefined.size());
  if (!found.symbol.starts_with("TF_") || CoreExports().contains(found.symbol)) return std::nullopt;
  if (SameFile(found.library, plugin_path)) return std::nullopt;
  const auto elf = loader::ReadElfFile(found.library, {});
  if (!elf.ok()) return std::nullopt;
  for (const std::string& needed : elf.value().needed) {
    if (TensorFlowSonames().contains(needed)) {
      found.tensorflow_library = needed;
      return found;
    }
  }
  return std::nullopt;
}

}  // namespace conformance::validate
