#pragma once
// The vocabulary of scenario files: step kinds and the keys each one takes. One table serves
// the parser (unknown and missing keys, did-you-mean) and the documentation tests (every kind
// and key appears in specs/scenarios/README.md and scenario.schema.json).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"

namespace conformance::scenario {

struct StepSchema {
  StepKind kind;
  std::string name;                   // the YAML key, e.g. "memcpy_htod"
  std::vector<std::string> keys;      // every key the step's mapping may have
  std::vector<std::string> required;  // keys it must have
  bool reports_status = false;        // may carry expect_status
};

const std::vector<StepSchema>& StepSchemas();
const StepSchema* FindStepSchema(std::string_view name);
const StepSchema& SchemaOf(StepKind kind);
std::vector<std::string> StepNames();

// Keys of the file's top-level mapping, of one scenario, and of one concurrent thread.
const std::vector<std::string>& FileKeys();
const std::vector<std::string>& ScenarioKeys();
const std::vector<std::string>& ThreadKeys();
// Keys of the inline data forms.
const std::vector<std::string>& PatternKeys();
const std::vector<std::string>& RandomKeys();

// Comma-separated, for "allowed keys: ..." messages.
std::string JoinKeys(const std::vector<std::string>& keys);

// " (did you mean 'x'?)" or "".
std::string Suggestion(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace conformance::scenario
