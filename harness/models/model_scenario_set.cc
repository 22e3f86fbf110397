#include "models/model_scenario_set.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/model_parser.h"
#include "scenario/scenario_error.h"

namespace conformance::model_scenario_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::model_scenario_data

namespace conformance::models {
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
    if (IsModelScenarioText(text.str())) files.emplace_back(path.string(), text.str());
  }
}

}  // namespace

std::vector<ModelScenario> LoadAllModelScenarios(const std::vector<std::string>& dirs) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& [path, text] : model_scenario_data::EmbeddedFiles())
    files.emplace_back(path, text);
  std::vector<scenario::ScenarioError> problems;
  for (const std::string& dir : dirs) AddDirectoryFiles(dir, files, problems);

  std::vector<ModelScenario> all;
  for (const auto& [label, text] : files) {
    scenario::ErrorList errors(label);
    for (auto& model : ParseModelScenarioText(text, label, errors)) all.push_back(std::move(model));
    problems.insert(problems.end(), errors.errors().begin(), errors.errors().end());
  }
  std::map<std::string, const ModelScenario*> seen;
  for (const ModelScenario& model : all) {
    auto [it, inserted] = seen.emplace(model.name, &model);
    if (!inserted) {
      problems.push_back({model.file, model.at, "name",
                          "model '" + model.name + "' is already defined by " + it->second->file +
                              ":" + std::to_string(it->second->at.line) + " (rename one of them)"});
    }
  }
  if (!problems.empty()) throw scenario::ScenarioFilesError(std::move(problems));
  return all;
}

}  // namespace conformance::models
