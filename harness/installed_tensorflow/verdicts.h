#pragma once
// The two sides of the agreement test in one shape: what real TensorFlow did with a plugin
// (tf_driver's JSON) and what plugin_conformance says it would do (its JSON report's
// `tensorflow_verdict`, the line its `[TensorFlow]` checks add up to).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tensorflow_driver {

// The `outcome` plugin_conformance gives a driver run that ended without its JSON (the driver
// crashed, aborted or outlived its deadline): what TensorFlow did is unknown
// (driver_process.h's DriverDiedResult).
inline constexpr const char* kDriverDiedOutcome = "driver_died";

struct Verdict {
  // kUndecided: the suite says it cannot know without TensorFlow (a plugin importing
  // TensorFlow's C++ symbols); kUnknown: a side reported nothing usable.
  enum class Kind { kLoads, kRefuses, kDies, kUndecided, kUnknown };
  Kind kind = Kind::kUnknown;
  std::optional<int> code;  // a refusal's TF_Code; none when TensorFlow logs no status
  std::string message;      // a refusal's message; what went wrong for kUnknown
  std::string death;        // kDies: "crash" or "timeout"
  // Ours only: the refusal's status is the plugin's own (an init function failing on a library
  // it could not open), so `message` is the cause it must carry, and there is no code to match.
  bool plugin_status = false;
  // Ours only: other messages TensorFlow's refusal may carry instead (the symbol dlopen names
  // first depends on what the release exports); the code must still match.
  std::vector<std::string> message_alternatives;

  // One cell of the table: "loads", "refuses: FAILED_PRECONDITION (9): MESSAGE", "dies: crash".
  std::string Describe() const;
};

// Agreement: the same kind; a refusal with the same code and the same message character for
// character (for ours with plugin_status: TensorFlow's message contains ours, whatever the
// code; with message_alternatives: one of them may stand for ours); a death of the same kind. One
// exception to character for character: an allowed-type list ("allowed=[DT_..., ...]") in which
// TensorFlow printed a number among the DT_ names (2.10.1 does, in place of some of them) agrees
// with ours when its DT_ names are ours in order, each number standing for one or more of ours; the
// rest of the message must be equal.
bool Agree(const Verdict& tensorflow, const Verdict& ours);

// A contradiction: the two disagree, unless ours is undecided (saying "unknown here" contradicts
// no outcome TensorFlow had; it is counted and shown apart, never as agreement).
bool Contradicts(const Verdict& tensorflow, const Verdict& ours);

// TensorFlow's verdict from one tf_driver result: a returned error or a FATAL log line is a
// refusal, a signal or timeout while loading a death (a crash or hang kills TensorFlow's
// process with the plugin, which is how we map it: the suite says "dies"). The load includes
// the plugin's first device, which TensorFlow creates with its first eager context: a status
// there is a refusal with that status, a crash or hang a death. A driver that died
// (kDriverDiedOutcome) is unknown, with its error.
Verdict FromDriver(const nlohmann::json& result);

// plugin_conformance's verdict from its JSON report.
Verdict FromConformance(const nlohmann::json& report);

}  // namespace tensorflow_driver
