#pragma once
// Scenario files → validated scenarios with their check ids: the built-in ones compiled into
// the binary (conformance/runtime/*.yaml) plus every *.yaml/*.yml under the directories a vendor
// passes with --scenarios. All files are read and checked before anything runs; any problem
// in any file is a ScenarioFilesError listing them all.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/program.h"
#include "scenario/scenario_error.h"

namespace conformance::scenario {

struct LoadedScenario {
  std::string id;    // runtime.scenario.<file stem>.<scenario name>
  std::string tier;  // runtime or stress (the file's `tier:`)
  std::shared_ptr<const ScenarioFile> file;
  const Scenario* scenario = nullptr;  // inside `file`
  std::shared_ptr<const Program> program;
};

// "runtime.scenario.<stem>.<name>".
std::string ScenarioCheckId(std::string_view stem, std::string_view name);

// One file's text; problems go to `errors`. Only valid scenarios are returned.
std::vector<LoadedScenario> LoadScenarioText(std::string_view text, const std::string& label,
                                             ErrorList& errors);

// The built-in scenarios (embedded at build time). Throws ScenarioFilesError if one is bad.
std::vector<LoadedScenario> BuiltinScenarios();

// Built-ins plus every *.yaml and *.yml under `dirs` (recursively, in sorted order, each file
// once however the directories overlap), checked for duplicate ids. Throws ScenarioFilesError
// listing every problem of every file. A directory that adds no file is a warning.
std::vector<LoadedScenario> LoadAllScenarios(const std::vector<std::string>& dirs,
                                             std::vector<std::string>* warnings = nullptr);

// Every problem of the files under `dirs` (not the built-ins), for tools and tests.
std::vector<ScenarioError> CheckScenarioDirs(const std::vector<std::string>& dirs);

}  // namespace conformance::scenario
