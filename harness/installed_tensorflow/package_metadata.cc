#include "installed_tensorflow/package_metadata.h"

#include <filesystem>
#include <fstream>
#include <vector>

namespace tensorflow_driver {
namespace {

namespace fs = std::filesystem;

bool NamesTheTensorFlowPackage(const fs::path& dist_info) {
  std::ifstream top_level(dist_info / "top_level.txt");
  std::string line;
  while (std::getline(top_level, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line == "tensorflow") return true;
  }
  return false;
}

// METADATA's "Version: 2.21.0" line.
std::optional<std::string> VersionIn(const fs::path& dist_info) {
  std::ifstream metadata(dist_info / "METADATA");
  std::string line;
  constexpr std::string_view kField = "Version:";
  while (std::getline(metadata, line)) {
    if (line.empty()) break;  // the headers end at the first empty line
    if (!line.starts_with(kField)) continue;
    std::string version = line.substr(kField.size());
    const auto first = version.find_first_not_of(" \t");
    const auto last = version.find_last_not_of(" \t\r");
    if (first == std::string::npos) return std::nullopt;
    return version.substr(first, last - first + 1);
  }
  return std::nullopt;
}

std::optional<std::string> ReleaseBeside(const fs::path& package) {
  std::error_code error;
  const fs::path site = package.parent_path();
  for (fs::directory_iterator it(site, error), end; !error && it != end; it.increment(error)) {
    const fs::path& entry = it->path();
    if (!entry.filename().string().ends_with(".dist-info")) continue;
    if (!NamesTheTensorFlowPackage(entry)) continue;
    if (auto version = VersionIn(entry)) return version;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ReleaseFromPackageMetadata(const std::string& dir) {
  fs::path package = fs::path(dir);
  if (!package.has_filename()) package = package.parent_path();  // "…/tensorflow/"
  if (auto release = ReleaseBeside(package)) return release;
  std::error_code error;
  const fs::path resolved = fs::canonical(package, error);
  if (error || resolved == package) return std::nullopt;
  return ReleaseBeside(resolved);
}

}  // namespace tensorflow_driver
