#include "installed_tensorflow/verdicts.h"

#include "scenario/status_codes.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

Verdict Of(Verdict::Kind kind, std::optional<int> code = std::nullopt, std::string message = "",
           std::string death = "") {
  Verdict verdict;
  verdict.kind = kind;
  verdict.code = code;
  verdict.message = std::move(message);
  verdict.death = std::move(death);
  return verdict;
}

Verdict Loads() { return Of(Verdict::Kind::kLoads); }

Verdict Refusal(std::optional<int> code, std::string message) {
  return Of(Verdict::Kind::kRefuses, code, std::move(message));
}

Verdict Death(std::string death) { return Of(Verdict::Kind::kDies, {}, "", std::move(death)); }

Verdict Unknown(std::string why) { return Of(Verdict::Kind::kUnknown, {}, std::move(why)); }

}  // namespace

std::string Verdict::Describe() const {
  switch (kind) {
    case Kind::kLoads: return "loads";
    case Kind::kDies: return "dies: " + death;
    case Kind::kUnknown: return "unknown: " + message;
    case Kind::kUndecided: return message;
    case Kind::kRefuses: break;
  }
  const std::string status =
      code ? conformance::scenario::CodeName(*code) + " (" + std::to_string(*code) + ")"
           : "no status";
  return "refuses: " + status + ": " + message;
}

bool Agree(const Verdict& tensorflow, const Verdict& ours) {
  if (tensorflow.kind != ours.kind || tensorflow.kind == Verdict::Kind::kUnknown) return false;
  if (tensorflow.kind == Verdict::Kind::kRefuses && ours.plugin_status) {
    return !ours.message.empty() && tensorflow.message.find(ours.message) != std::string::npos;
  }
  if (tensorflow.kind == Verdict::Kind::kRefuses) {
    return tensorflow.code == ours.code && tensorflow.message == ours.message;
  }
  return tensorflow.death == ours.death;
}

bool Contradicts(const Verdict& tensorflow, const Verdict& ours) {
  if (ours.kind == Verdict::Kind::kUndecided && tensorflow.kind != Verdict::Kind::kUnknown)
    return false;
  return !Agree(tensorflow, ours);
}

namespace {

Verdict FromStatus(const json& status) {
  std::optional<int> code;
  if (status.contains("code")) code = status["code"].get<int>();
  return Refusal(code, status.value("message", ""));
}

// A plugin TensorFlow loaded whose devices fail when the first context creates them: TensorFlow
// cannot use it and, for a status, dies with it (the suite checks device creation at load).
Verdict FromDeviceCreation(const json& result) {
  const std::string outcome = result.value("devices_outcome", "created");
  if (outcome == "failed") return FromStatus(result["devices_status"]);
  if (outcome == "aborted") return FromStatus(result["devices_fatal"]);
  if (outcome == "crashed") return Death("crash");
  if (outcome == "timeout") return Death("timeout");
  return Loads();
}

}  // namespace

Verdict FromDriver(const json& result) {
  const std::string outcome = result.value("outcome", "");
  if (outcome == "loaded") return FromDeviceCreation(result);
  if (outcome == "refused") {
    return Refusal(result["load_status"]["code"].get<int>(),
                   result["load_status"]["message"].get<std::string>());
  }
  if (outcome == "aborted") return FromStatus(result["fatal"]);
  if (outcome == "crashed") return Death("crash");
  if (outcome == "timeout") return Death("timeout");
  if (outcome == kDriverDiedOutcome) {
    return Unknown("the TensorFlow driver died: " + result.value("driver_error", ""));
  }
  return Unknown("tf_driver outcome '" + outcome + "'");
}

Verdict FromConformance(const json& report) {
  if (!report.contains("tensorflow_verdict")) return Unknown("no tensorflow_verdict in the report");
  const json& verdict = report["tensorflow_verdict"];
  if (verdict.value("loads", false)) return Loads();
  if (verdict.value("unknown", false)) {
    return Of(Verdict::Kind::kUndecided, {}, verdict.value("summary", "unknown here"));
  }
  if (verdict.contains("dies")) return Death(verdict["dies"].get<std::string>());
  const std::string check = verdict.value("check", "");
  // A death is a crash or timeout result of the deciding check; anything else is a refusal.
  for (const json& result : report.value("results", json::array())) {
    if (result.value("id", "") != check) continue;
    const std::string outcome = result.value("outcome", "");
    if (outcome == "crash" || outcome == "timeout") return Death(outcome);
  }
  std::optional<int> code;
  if (verdict.contains("code")) code = verdict["code"].get<int>();
  Verdict refusal = Refusal(code, verdict.value("message", ""));
  refusal.plugin_status = verdict.value("plugin_status", false);
  return refusal;
}

}  // namespace tensorflow_driver
