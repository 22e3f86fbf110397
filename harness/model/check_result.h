#pragma once
// One result record: what a check found. Results cross the pipe from the child process as
// JSON (see to_json/from_json), so everything here must be plain data.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/outcome.h"

namespace conformance {

// Filled when a check ended in `crash` or `timeout`.
struct CrashInfo {
  std::string signal;                  // "SIGSEGV", "SIGABRT", "exit(3)", "timeout after 5000 ms"
  std::string last_call;               // plugin callback in flight, e.g. "SE_InitPlugin"
  std::vector<std::string> backtrace;  // symbolized frames, innermost first
};

struct CheckResult {
  std::string id;  // stable hierarchical id, e.g. load.se.platform.name_regex
  Outcome outcome = Outcome::kPass;
  std::string message;         // human-readable finding; empty on a plain pass
  std::optional<int> tf_code;  // TF_Code TensorFlow reports for this failure, if any
  std::map<std::string, std::string> details;  // expected/actual, seed, generation, ...
  double seconds = 0.0;                        // wall time of the check
  std::optional<CrashInfo> crash;
  std::string waiver_reason;  // set when outcome is waived / unexpected_pass
  // What the unit's process printed to stdout/stderr (the plugin's own output, bounded), on
  // the first result of the unit only; empty when it printed nothing or ran in-process.
  std::string plugin_output;
  // Tier of the unit that emitted it (load, runtime, ...). Set by the run layer in the parent,
  // never sent over the pipe: a child cannot claim a tier.
  std::string tier;
};

void to_json(nlohmann::json& json, const CrashInfo& crash);
void from_json(const nlohmann::json& json, CrashInfo& crash);
void to_json(nlohmann::json& json, const CheckResult& result);
void from_json(const nlohmann::json& json, CheckResult& result);

}  // namespace conformance
