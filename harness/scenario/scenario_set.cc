#include "scenario/scenario_set.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "scenario/parser.h"
#include "scenario/validator.h"

namespace conformance::scenario_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::scenario_data

namespace conformance::scenario {
namespace {

namespace fs = std::filesystem;

bool IsTierScenarioFile(const std::string& text) {
  try {
    const YAML::Node root = YAML::Load(text);
    return root.IsMap() && (root["kernels"] || root["models"]) && !root["scenarios"];
  } catch (const YAML::Exception&) {
    return false;  // the scenario parser reports the YAML problem
  }
}

std::string StemOf(const std::string& label) { return fs::path(label).stem().string(); }

// Loads the files, then checks ids are unique across all of them.
std::vector<LoadedScenario> LoadFiles(const std::vector<std::pair<std::string, std::string>>& files,
                                      std::vector<ScenarioError>& problems) {
  std::vector<LoadedScenario> loaded;
  for (const auto& [label, text] : files) {
    ErrorList errors(label);
    auto scenarios = LoadScenarioText(text, label, errors);
    problems.insert(problems.end(), errors.errors().begin(), errors.errors().end());
    for (auto& scenario : scenarios) loaded.push_back(std::move(scenario));
  }
  std::map<std::string, const LoadedScenario*> seen;
  for (const LoadedScenario& scenario : loaded) {
    auto [it, inserted] = seen.emplace(scenario.id, &scenario);
    if (!inserted) {
      const LoadedScenario& first = *it->second;
      problems.push_back({scenario.file->label, scenario.scenario->name_at, "name",
                          "check id " + scenario.id + " is already defined by " +
                              first.file->label + ":" +
                              std::to_string(first.scenario->name_at.line) +
                              " (rename the file or the scenario)"});
    }
  }
  return loaded;
}

std::vector<std::pair<std::string, std::string>> BuiltinFiles() {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& [path, text] : scenario_data::EmbeddedFiles()) files.emplace_back(path, text);
  return files;
}

bool IsScenarioFile(const fs::directory_entry& entry) {
  const fs::path extension = entry.path().extension();
  return entry.is_regular_file() && (extension == ".yaml" || extension == ".yml");
}

// Every *.yaml and *.yml file under `dirs`, each once: a directory given twice, or one inside
// another, does not make a file collide with itself.
std::vector<std::pair<std::string, std::string>> DirectoryFiles(
    const std::vector<std::string>& dirs, std::vector<ScenarioError>& problems,
    std::vector<std::string>& warnings) {
  std::vector<std::pair<std::string, std::string>> files;
  std::set<fs::path> seen;  // canonical paths of the files already taken
  for (const std::string& dir : dirs) {
    std::error_code error;
    if (!fs::exists(dir, error)) {
      problems.push_back({dir, {}, "", "--scenarios: no such directory"});
      continue;
    }
    if (!fs::is_directory(dir, error)) {
      problems.push_back(
          {dir,
           {},
           "",
           "--scenarios: not a directory (give the folder that holds the scenario files)"});
      continue;
    }
    std::vector<fs::path> paths;
    for (auto it = fs::recursive_directory_iterator(dir, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (IsScenarioFile(*it)) paths.push_back(it->path());
    }
    if (error)
      problems.push_back(
          {dir, {}, "", "--scenarios: cannot list the directory: " + error.message()});
    std::sort(paths.begin(), paths.end());
    std::size_t taken = 0;
    for (const fs::path& path : paths) {
      std::error_code canonical_error;
      const fs::path canonical = fs::weakly_canonical(path, canonical_error);
      if (!seen.insert(canonical_error ? path : canonical).second) {
        ++taken;  // already read through another --scenarios directory
        continue;
      }
      std::ifstream in(path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      if (!in) {
        problems.push_back(
            {path.string(), {}, "", std::string("cannot read the file: ") + std::strerror(errno)});
        continue;
      }
      // Kernel and model scenario files (a top-level `kernels:` or `models:` key) share
      // --scenarios directories and belong to their tiers (harness/kernels, harness/models);
      // the directory is not empty for them.
      if (IsTierScenarioFile(text.str())) {
        ++taken;
        continue;
      }
      files.emplace_back(path.string(), text.str());
      ++taken;
    }
    if (taken == 0 && !error) {
      warnings.push_back("--scenarios " + dir +
                         ": no *.yaml or *.yml files in it; it adds no scenarios");
    }
  }
  return files;
}

}  // namespace

std::string ScenarioCheckId(std::string_view stem, std::string_view name) {
  return "runtime.scenario." + std::string(stem) + "." + std::string(name);
}

std::vector<LoadedScenario> LoadScenarioText(std::string_view text, const std::string& label,
                                             ErrorList& errors) {
  ParsedFile parsed = ParseScenarioText(text, label, StemOf(label), errors);
  auto file = std::make_shared<const ScenarioFile>(std::move(parsed.file));
  std::vector<LoadedScenario> loaded;
  for (std::size_t i = 0; i < file->scenarios.size(); ++i) {
    if (!parsed.scenario_ok[i]) continue;
    const Scenario& scenario = file->scenarios[i];
    auto program = ValidateScenario(*file, scenario, errors);
    if (!program) continue;
    program->scenario = std::shared_ptr<const Scenario>(file, &scenario);  // keeps the file alive
    loaded.push_back(LoadedScenario{ScenarioCheckId(file->stem, scenario.name), file->tier, file,
                                    &scenario,
                                    std::make_shared<const Program>(std::move(*program))});
  }
  return loaded;
}

std::vector<LoadedScenario> BuiltinScenarios() { return LoadAllScenarios({}); }

std::vector<LoadedScenario> LoadAllScenarios(const std::vector<std::string>& dirs,
                                             std::vector<std::string>* warnings) {
  std::vector<ScenarioError> problems;
  std::vector<std::string> ignored;
  auto files = BuiltinFiles();
  auto more = DirectoryFiles(dirs, problems, warnings ? *warnings : ignored);
  files.insert(files.end(), more.begin(), more.end());
  auto loaded = LoadFiles(files, problems);
  if (!problems.empty()) throw ScenarioFilesError(std::move(problems));
  return loaded;
}

std::vector<ScenarioError> CheckScenarioDirs(const std::vector<std::string>& dirs) {
  std::vector<ScenarioError> problems;
  std::vector<std::string> warnings;
  LoadFiles(DirectoryFiles(dirs, problems, warnings), problems);
  return problems;
}

}  // namespace conformance::scenario
