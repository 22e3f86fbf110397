#include "kernels/kernel_scenario_set.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "kernels/kernel_parser.h"

namespace conformance::kernel_scenario_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::kernel_scenario_data

namespace conformance::kernels {
namespace {

namespace fs = std::filesystem;

void AddDirectoryFiles(const std::string& dir,
                       std::vector<std::pair<std::string, std::string>>& files,
                       std::vector<scenario::ScenarioError>& problems) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return;  // the runtime scenario loader reports it
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(dir, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file() &&
        (it->path().extension() == ".yaml" || it->path().extension() == ".yml"))
      paths.push_back(it->path());
  }
  std::sort(paths.begin(), paths.end());
  for (const fs::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      problems.push_back({path.string(), {}, "", "cannot read the file"});
      continue;
    }
    // Runtime scenario files in the same directory belong to the runtime scenario loader.
    if (IsKernelScenarioText(text.str())) files.emplace_back(path.string(), text.str());
  }
}

}  // namespace

std::vector<KernelScenario> LoadKernelScenarioText(std::string_view text, const std::string& label,
                                                   scenario::ErrorList& errors,
                                                   const ops::OpRegistry* registry,
                                                   PluginOps* plugin_ops) {
  return ParseKernelScenarioText(text, label, errors, registry, plugin_ops).scenarios;
}

std::vector<KernelScenario> LoadAllKernelScenarios(const std::vector<std::string>& dirs,
                                                   const ops::OpRegistry* registry,
                                                   PluginOps* plugin_ops) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& [path, text] : kernel_scenario_data::EmbeddedFiles())
    files.emplace_back(path, text);
  std::vector<scenario::ScenarioError> problems;
  for (const std::string& dir : dirs) AddDirectoryFiles(dir, files, problems);

  std::vector<KernelScenario> all;
  std::map<std::string, const KernelScenario*> seen;
  for (const auto& [label, text] : files) {
    scenario::ErrorList errors(label);
    auto scenarios = LoadKernelScenarioText(text, label, errors, registry, plugin_ops);
    problems.insert(problems.end(), errors.errors().begin(), errors.errors().end());
    for (auto& s : scenarios) all.push_back(std::move(s));
  }
  for (const KernelScenario& s : all) {
    auto [it, inserted] = seen.emplace(s.op + "." + s.name, &s);
    if (!inserted && it->second->file != s.file) {
      problems.push_back({s.file, s.at, "name",
                          "scenario '" + s.name + "' of " + s.op + " is already defined by " +
                              it->second->file + ":" + std::to_string(it->second->at.line) +
                              " (rename one of them)"});
    }
  }
  if (!problems.empty()) throw scenario::ScenarioFilesError(std::move(problems));
  return all;
}

std::vector<KernelScenario> BuiltinKernelScenarios() { return LoadAllKernelScenarios({}); }

}  // namespace conformance::kernels
