#include "cli/installed_plugin_folder.h"

#include <cstdlib>
#include <system_error>
#include <vector>

#include "loader/dependency_resolver.h"
#include "loader/elf_file.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;

// Stands for any site-packages folder: only where $ORIGIN leads relative to it matters.
const fs::path kSitePackages = "/site-packages-of-python/site-packages";

// "." for the folder itself.
bool InsideOrEqual(const fs::path& path, const fs::path& folder) {
  const fs::path inside = path.lexically_relative(folder);
  return !inside.empty() && *inside.begin() != "..";
}

bool LaidOutForPluginsFolder(const std::string& plugin) {
  loader::ElfReadOptions read;
  read.read_dynamic_symbols = false;
  auto elf = loader::ReadElfFile(plugin, read);
  if (!elf.ok()) return false;
  // glibc ignores DT_RPATH when DT_RUNPATH is present.
  const auto& search = elf.value().runpath ? elf.value().runpath : elf.value().rpath;
  return search && LeadsIntoTensorFlowFromPluginsFolder(*search);
}

bool AlreadyInstalled(const fs::path& plugin, const std::string& tensorflow_dir) {
  std::error_code error;
  const fs::path beside = fs::absolute(plugin, error).parent_path();
  return beside.filename() == "tensorflow-plugins" &&
         fs::equivalent(beside.parent_path() / "tensorflow", tensorflow_dir, error);
}

void ReplaceAll(nlohmann::json& value, const std::string& from, const std::string& to) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
    value = text;
  } else if (value.is_structured()) {
    for (auto& item : value) ReplaceAll(item, from, to);
  }
}

}  // namespace

bool LeadsIntoTensorFlowFromPluginsFolder(const std::string& search_path) {
  const loader::DependencySearchOptions options;
  const fs::path tensorflow = kSitePackages / "tensorflow";
  for (const auto& element : loader::SplitSearchPath(search_path)) {
    const std::string written = element.string();
    if (written.find("$ORIGIN") == std::string::npos &&
        written.find("${ORIGIN}") == std::string::npos) {
      continue;
    }
    const fs::path expanded =
        loader::ExpandDynamicStringTokens(written, kSitePackages / "tensorflow-plugins", options);
    if (InsideOrEqual(expanded.lexically_normal(), tensorflow)) return true;
  }
  return false;
}

InstalledPluginFolder::InstalledPluginFolder(const std::string& plugin,
                                             const std::string& tensorflow_dir)
    : plugin_(plugin), given_(plugin) {
  if (!LaidOutForPluginsFolder(plugin) || AlreadyInstalled(plugin, tensorflow_dir)) return;
  std::error_code error;
  std::string pattern =
      (fs::temp_directory_path(error) / "plugin_conformance_site.XXXXXX").string();
  if (error || mkdtemp(pattern.data()) == nullptr) return;
  root_ = pattern;
  const fs::path site = root_ / "site-packages";
  const fs::path plugins = site / "tensorflow-plugins";
  const fs::path folder = fs::absolute(plugin, error).parent_path();
  fs::create_directories(plugins, error);
  if (!error)
    fs::create_directory_symlink(fs::absolute(tensorflow_dir, error), site / "tensorflow", error);
  for (fs::directory_iterator entry(folder, error), end; !error && entry != end;
       entry.increment(error)) {
    fs::create_symlink(entry->path(), plugins / entry->path().filename(), error);
  }
  if (error) {
    fs::remove_all(root_, error);
    root_.clear();
    return;
  }
  given_ = (plugins / fs::path(plugin).filename()).string();
}

InstalledPluginFolder::~InstalledPluginFolder() {
  std::error_code ignored;
  // remove_all removes the links, never what they point to.
  if (!root_.empty()) fs::remove_all(root_, ignored);
}

nlohmann::json InstalledPluginFolder::AsGiven(nlohmann::json result) const {
  if (staged()) ReplaceAll(result, given_, plugin_);
  return result;
}

}  // namespace conformance
