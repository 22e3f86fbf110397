#pragma once
// Runs a validated Program on a Backend while keeping the model: a host-side copy of what
// every buffer must hold. Every read-back (memcpy_dtoh) and every `verify` is compared with
// the model once its bytes are guaranteed on the host; the first differing byte is reported
// with its offset, the expected and actual values, the step and its file:line.
#include <cstdint>
#include <map>
#include <string>

#include "scenario/backend.h"
#include "scenario/program.h"

namespace conformance::scenario {

struct ScenarioOutcome {
  enum class Kind { kPass, kFail, kNotSupported };
  Kind kind = Kind::kPass;
  std::string message;
  std::map<std::string, std::string> details;
};

// What the plugin must offer for the scenario to run; empty when it does.
std::optional<std::string> UnmetRequirement(const Requirements& requirements, Backend& backend);

ScenarioOutcome RunProgram(const Program& program, Backend& backend, uint64_t seed);

}  // namespace conformance::scenario
