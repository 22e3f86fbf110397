#pragma once
// Problems found in scenario files before anything runs. Every problem names the file, the
// position and (when it is about one) the key: "file:line:col: key 'x': message", so an editor
// can jump to it and a vendor knows what to change.
#include <string>
#include <vector>

#include "run/usage_error.h"
#include "scenario/scenario.h"

namespace conformance::scenario {

struct ScenarioError {
  std::string file;
  Location at;
  std::string key;  // empty when the problem is not about one key
  std::string message;

  std::string ToString() const;
};

// Collects every problem of a run instead of stopping at the first, so one pass over a
// vendor's directory shows them all.
class ErrorList {
 public:
  explicit ErrorList(std::string file) : file_(std::move(file)) {}
  void Add(Location at, std::string key, std::string message);
  const std::vector<ScenarioError>& errors() const { return errors_; }
  bool empty() const { return errors_.empty(); }
  std::size_t size() const { return errors_.size(); }
  const std::string& file() const { return file_; }
  void Append(const ErrorList& other);

 private:
  std::string file_;
  std::vector<ScenarioError> errors_;
};

// Thrown by ScenarioUnits when any scenario file is bad: a usage error (exit code 2) whose
// message lists every problem, one per line.
class ScenarioFilesError : public UsageError {
 public:
  explicit ScenarioFilesError(std::vector<ScenarioError> errors);
  const std::vector<ScenarioError>& errors() const { return errors_; }

 private:
  std::vector<ScenarioError> errors_;
};

}  // namespace conformance::scenario
