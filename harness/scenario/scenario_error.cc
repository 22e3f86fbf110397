#include "scenario/scenario_error.h"

namespace conformance::scenario {
namespace {

std::string Describe(const std::vector<ScenarioError>& errors) {
  std::string text = std::to_string(errors.size()) + (errors.size() == 1 ? " error" : " errors") +
                     " in scenario files:";
  for (const ScenarioError& error : errors) text += "\n  " + error.ToString();
  return text;
}

}  // namespace

std::string ScenarioError::ToString() const {
  std::string text = file;
  if (at.line > 0) text += ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  text += ": ";
  if (!key.empty()) text += "key '" + key + "': ";
  return text + message;
}

void ErrorList::Add(Location at, std::string key, std::string message) {
  errors_.push_back(ScenarioError{file_, at, std::move(key), std::move(message)});
}

void ErrorList::Append(const ErrorList& other) {
  errors_.insert(errors_.end(), other.errors_.begin(), other.errors_.end());
}

ScenarioFilesError::ScenarioFilesError(std::vector<ScenarioError> errors)
    : UsageError(Describe(errors)), errors_(std::move(errors)) {}

}  // namespace conformance::scenario
