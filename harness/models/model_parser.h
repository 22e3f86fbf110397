#pragma once
// Model scenario files (YAML, specs/scenarios/models.md) -> ModelScenario. Every problem is
// reported with file:line:column, the key and, for misspelt keys, ops and tensor names, a
// did-you-mean; parsing goes on after a problem so one pass shows them all. A model with a
// problem is left out.
#include <string>
#include <string_view>
#include <vector>

#include "models/model_scenario.h"
#include "scenario/scenario_error.h"

namespace conformance::models {

// A file is a model scenario file when its top level is a mapping with a `models:` key (kernel
// scenario files have `kernels:`, runtime scenario files `scenarios:`).
bool IsModelScenarioText(std::string_view text);

std::vector<ModelScenario> ParseModelScenarioText(std::string_view text, const std::string& label,
                                                  scenario::ErrorList& errors);

// The vocabulary, for the documentation and schema tests.
const std::vector<std::string>& ModelFileKeys();
const std::vector<std::string>& ModelKeys();
const std::vector<std::string>& ModelInputKeys();
const std::vector<std::string>& ModelNodeKeys();

}  // namespace conformance::models
