#include "run/tensorflow_verdict.h"

#include <algorithm>

#include "model/tensorflow_fails_at.h"

namespace conformance {
namespace {

bool EnforcedByTensorFlow(const CheckResult& result, const OriginLookup& origin_of) {
  if (result.tf_code) return true;
  if (!origin_of) return false;
  const std::optional<Origin> origin = origin_of(result.id);
  return origin && *origin == Origin::kTensorFlow;
}

// What TensorFlow itself says: checks whose message adds our diagnosis (the library checks, the
// co-load checks) keep TensorFlow's exact text in details["tensorflow_message"].
std::string TensorFlowMessage(const CheckResult& result) {
  const auto it = result.details.find("tensorflow_message");
  return it != result.details.end() && !it->second.empty() ? it->second : result.message;
}

// How TensorFlow's process dies with the plugin: the result's own crash or timeout, or, for a
// check that finds what TensorFlow would crash on (a NULL callback it calls unchecked), the
// outcome the check recorded in details["tensorflow_outcome"].
std::string DeathOf(const CheckResult& result) {
  const auto it = result.details.find("tensorflow_outcome");
  return it != result.details.end() ? it->second : std::string(ToString(result.outcome));
}

nlohmann::json RefusalOf(const CheckResult& result, bool rejected) {
  const std::string message = TensorFlowMessage(result);
  nlohmann::json verdict = {{"loads", false}, {"check", result.id}, {"message", message}};
  // The status TensorFlow aborts on is the plugin's own: the message is the cause it carries.
  if (result.details.contains(std::string(kPluginStatusDetail))) verdict["plugin_status"] = true;
  if (auto it = result.details.find(std::string(kMessageAlternativesDetail));
      it != result.details.end()) {
    nlohmann::json alternatives = nlohmann::json::array();
    std::size_t start = 0;
    while (start < it->second.size()) {
      const std::size_t end = std::min(it->second.find('\n', start), it->second.size());
      alternatives.push_back(it->second.substr(start, end - start));
      start = end + 1;
    }
    verdict["message_alternatives"] = std::move(alternatives);
  }
  if (!rejected) {
    verdict["dies"] = DeathOf(result);
    verdict["summary"] =
        "its process dies with the plugin (" + DeathOf(result) + " in " + result.id + ")";
  } else if (result.tf_code) {
    verdict["code"] = *result.tf_code;
    verdict["summary"] =
        "refuses the plugin (TF_Code " + std::to_string(*result.tf_code) + "): " + message;
  } else {
    verdict["summary"] = "refuses the plugin (" + result.id + "): " + message;
  }
  // The header generation behind a rejection, when the load tier found one: what to rebuild.
  if (auto it = result.details.find("layout_shift"); rejected && it != result.details.end()) {
    verdict["summary"] =
        verdict["summary"].get<std::string>() + " The plugin was " + it->second + ".";
  }
  return verdict;
}

}  // namespace

std::optional<nlohmann::json> TensorFlowVerdict(const std::vector<CheckResult>& results,
                                                const OriginLookup& origin_of) {
  const CheckResult* at_first_use = nullptr;  // raised after every status of the loading
  for (const CheckResult& result : results) {
    // A failure this release logs and loads the plugin anyway (model/tensorflow_fails_at.h).
    const bool rejected = result.outcome == Outcome::kFail &&
                          EnforcedByTensorFlow(result, origin_of) && !TensorFlowNeverFails(result);
    if (rejected && FailsAtFirstUse(result)) {
      if (at_first_use == nullptr) at_first_use = &result;
      continue;
    }
    // Whether TensorFlow loads the plugin: a crash while loading kills its process; a crash a
    // later tier provokes (a kernel under injected faults) is that check's finding, not this,
    // nor is one in a call this release never makes (TFNPD_InitPlugin before 2.12).
    const bool dies =
        ((result.outcome == Outcome::kCrash || result.outcome == Outcome::kTimeout) &&
         result.id.starts_with("load.") && !TensorFlowNeverFails(result)) ||
        (result.outcome == Outcome::kFail && result.details.contains("tensorflow_outcome"));
    if (rejected || dies) return RefusalOf(result, rejected);
  }
  if (at_first_use != nullptr) return RefusalOf(*at_first_use, true);
  for (const CheckResult& result : results) {
    if (result.id == "load.library.dlopen" && result.outcome == Outcome::kPass) {
      return nlohmann::json{{"loads", true}, {"summary", "loads the plugin"}};
    }
    // The mock core cannot host a plugin built against TensorFlow's C++ libraries: whether
    // TensorFlow loads it is not known here, which the line must say rather than stay silent.
    if (result.id == "load.library.tensorflow_cxx" && result.outcome == Outcome::kNotSupported) {
      return nlohmann::json{
          {"unknown", true},
          {"check", result.id},
          {"summary", std::string(result.message.find("(loaded by the plugin)") != std::string::npos
                                      ? kUnknownCApiWithoutTensorFlow
                                      : kUnknownWithoutTensorFlow)}};
    }
  }
  return std::nullopt;
}

bool TensorFlowRefuses(const std::optional<nlohmann::json>& verdict) {
  return verdict && verdict->value("loads", true) == false;
}

void FillTensorFlowVerdict(RunReport& report, const OriginLookup& origin_of) {
  const std::vector<CheckResult> results = report.results;
  FillTensorFlowVerdict(report, results, origin_of);
}

void FillTensorFlowVerdict(RunReport& report, const std::vector<CheckResult>& run,
                           const OriginLookup& origin_of) {
  for (const CheckResult& result : run) {
    if (result.id == "load.se.header_generation" && result.outcome == Outcome::kPass) {
      if (auto it = result.details.find("generation"); it != result.details.end()) {
        report.header_generation = it->second;
      }
    }
  }
  report.tensorflow_verdict = TensorFlowVerdict(run, origin_of);
}

}  // namespace conformance
