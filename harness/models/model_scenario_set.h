#pragma once
// Model scenario files -> validated models: the built-in ones compiled into the binary
// (conformance/models/*.yaml) plus every model scenario file (a top-level `models:` key) under
// the directories a vendor passes with --scenarios. Any problem is a
// scenario::ScenarioFilesError (a usage error) listing every one.
#include <string>
#include <vector>

#include "models/model_scenario.h"

namespace conformance::models {

// Built-ins plus the model files under `dirs` (recursively, sorted); a model name defined twice
// is an error naming both places.
std::vector<ModelScenario> LoadAllModelScenarios(const std::vector<std::string>& dirs);

}  // namespace conformance::models
