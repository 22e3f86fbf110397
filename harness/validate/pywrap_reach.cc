#include "validate/pywrap_reach.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

#include "loader/dependency_resolver.h"
#include "validate/core_libraries.h"

namespace conformance::validate {
namespace {

namespace fs = std::filesystem;

// Stands for any site-packages folder: only where $ORIGIN leads relative to it matters.
const fs::path kSitePackages = "/site-packages-of-python/site-packages";
// A vendor's libraries rarely nest deeper; the bound keeps a cycle of links finite.
constexpr int kMaxDepth = 8;

fs::path Normal(const fs::path& path) {
  fs::path normal = path.lexically_normal();
  if (!normal.has_filename() && normal.has_parent_path()) normal = normal.parent_path();
  return normal;
}

bool EndsWithTensorFlowPython(const fs::path& path) {
  return path.filename() == "python" && path.parent_path().filename() == "tensorflow";
}

// Where a library would lie once the plugin's folder is installed as tensorflow-plugins: a
// folder inside the plugin's goes along (in_site), any other stays where it is.
struct Placement {
  fs::path origin;
  bool in_site = true;
};

// A search path glibc uses for a DT_NEEDED, with the folder its $ORIGIN names.
struct SearchPath {
  std::string text;
  Placement owner;
};

bool Reaches(const SearchPath& search) {
  const loader::DependencySearchOptions options;
  const fs::path python = kSitePackages / "tensorflow" / "python";
  for (const auto& element : loader::SplitSearchPath(search.text)) {
    const std::string written = element.string();
    const bool relative_to_origin = written.find("$ORIGIN") != std::string::npos ||
                                    written.find("${ORIGIN}") != std::string::npos;
    const fs::path expanded =
        Normal(loader::ExpandDynamicStringTokens(written, search.owner.origin, options));
    if (relative_to_origin && search.owner.in_site
            ? expanded == python
            : expanded.is_absolute() && EndsWithTensorFlowPython(expanded)) {
      return true;
    }
  }
  return false;
}

Placement Installed(const fs::path& folder, const fs::path& plugin_folder) {
  const fs::path inside = Normal(folder).lexically_relative(plugin_folder);
  if (!inside.empty() && *inside.begin() != "..") {
    return {Normal(kSitePackages / "tensorflow-plugins" / inside), true};
  }
  return {Normal(folder), false};
}

class Walk {
 public:
  explicit Walk(const fs::path& plugin_folder) : plugin_folder_(plugin_folder) {}

  // `inherited`: the DT_RPATHs of the objects that loaded `library` (those without a
  // DT_RUNPATH, whose DT_RPATH glibc ignores).
  std::optional<UnreachablePywrap> Visit(const loader::ElfFile& library, const Placement& at,
                                         const std::vector<SearchPath>& inherited, int depth) {
    if (std::find(library.needed.begin(), library.needed.end(), kPywrapSoname) !=
        library.needed.end()) {
      std::vector<SearchPath> searched;
      if (library.runpath) {
        searched.push_back({*library.runpath, at});
      } else {
        if (library.rpath) searched.push_back({*library.rpath, at});
        searched.insert(searched.end(), inherited.begin(), inherited.end());
      }
      if (std::none_of(searched.begin(), searched.end(), Reaches)) {
        return UnreachablePywrap{library.path, depth == 0,
                                 std::string(kPywrapSoname) +
                                     ": cannot open shared object file: No such file or directory"};
      }
    }
    if (depth >= kMaxDepth) return std::nullopt;
    std::vector<SearchPath> passed_on = inherited;
    if (!library.runpath && library.rpath) passed_on.push_back({*library.rpath, at});
    // TensorFlow's own libraries and what this process has loaded already (the C and C++
    // runtimes) are not the vendor's: only other files found on disk.
    loader::DependencySearchOptions options;
    options.harness_sonames = {kFrameworkSoname, kPywrapSoname};
    for (const auto& needed : loader::ResolveDependencies(library, options).needed) {
      if (!needed.found || needed.resolved.empty() || TensorFlowSonames().contains(needed.name) ||
          needed.found_in == loader::SearchPlace::kHarnessProvided ||
          needed.found_in == loader::SearchPlace::kAlreadyLoaded) {
        continue;
      }
      std::error_code ignored;
      if (!visited_.insert(fs::weakly_canonical(needed.resolved, ignored)).second) continue;
      loader::ElfReadOptions read;
      read.read_dynamic_symbols = false;
      auto dependency = loader::ReadElfFile(needed.resolved, read);
      if (!dependency.ok()) continue;  // load.library.needed reports unusable files itself
      const Placement placed =
          Installed(fs::absolute(needed.resolved, ignored).parent_path(), plugin_folder_);
      if (auto found = Visit(dependency.value(), placed, passed_on, depth + 1)) return found;
    }
    return std::nullopt;
  }

 private:
  fs::path plugin_folder_;
  std::set<fs::path> visited_;
};

}  // namespace

bool SearchPathReachesPywrap(std::string_view search_path) {
  return Reaches({std::string(search_path), {kSitePackages / "tensorflow-plugins", true}});
}

std::optional<UnreachablePywrap> FindUnreachablePywrap(const loader::ElfFile& plugin,
                                                       const Profile& profile) {
  if (profile.pywrap_soname) return std::nullopt;
  std::error_code ignored;
  const fs::path folder = Normal(fs::absolute(plugin.path, ignored).parent_path());
  return Walk(folder).Visit(plugin, {kSitePackages / "tensorflow-plugins", true}, {}, 0);
}

std::optional<std::string> UnreachablePywrapMessage(const loader::ElfFile& plugin,
                                                    const Profile& profile) {
  auto found = FindUnreachablePywrap(plugin, profile);
  if (!found) return std::nullopt;
  return found->tensorflow_message;
}

}  // namespace conformance::validate
