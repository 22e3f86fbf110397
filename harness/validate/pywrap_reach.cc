#include "validate/pywrap_reach.h"

#include <algorithm>
#include <filesystem>

#include "loader/dependency_resolver.h"
#include "validate/core_libraries.h"

namespace conformance::validate {
namespace {

// Stands for any site-packages folder: only where $ORIGIN leads relative to it matters.
const std::filesystem::path kSitePackages = "/site-packages-of-python/site-packages";

std::filesystem::path Normal(const std::filesystem::path& path) {
  std::filesystem::path normal = path.lexically_normal();
  if (!normal.has_filename() && normal.has_parent_path()) normal = normal.parent_path();
  return normal;
}

bool EndsWithTensorFlowPython(const std::filesystem::path& path) {
  return path.filename() == "python" && path.parent_path().filename() == "tensorflow";
}

}  // namespace

bool SearchPathReachesPywrap(std::string_view search_path) {
  const std::filesystem::path plugins = kSitePackages / "tensorflow-plugins";
  const std::filesystem::path python = kSitePackages / "tensorflow" / "python";
  const loader::DependencySearchOptions options;
  for (const auto& element : loader::SplitSearchPath(search_path)) {
    const std::string written = element.string();
    const bool relative_to_origin = written.find("$ORIGIN") != std::string::npos ||
                                    written.find("${ORIGIN}") != std::string::npos;
    const std::filesystem::path expanded =
        Normal(loader::ExpandDynamicStringTokens(written, plugins, options));
    if (relative_to_origin ? expanded == python
                           : expanded.is_absolute() && EndsWithTensorFlowPython(expanded)) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> UnreachablePywrapMessage(const loader::ElfFile& plugin,
                                                    const Profile& profile) {
  if (profile.pywrap_soname) return std::nullopt;
  if (std::find(plugin.needed.begin(), plugin.needed.end(), kPywrapSoname) == plugin.needed.end())
    return std::nullopt;
  // glibc ignores DT_RPATH when DT_RUNPATH is present.
  const std::optional<std::string>& search = plugin.runpath ? plugin.runpath : plugin.rpath;
  if (search && SearchPathReachesPywrap(*search)) return std::nullopt;
  return std::string(kPywrapSoname) + ": cannot open shared object file: No such file or directory";
}

}  // namespace conformance::validate
