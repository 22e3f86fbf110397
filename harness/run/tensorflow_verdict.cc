#include "run/tensorflow_verdict.h"

#include <nlohmann/json.hpp>

namespace conformance {

void FillTensorFlowVerdict(RunReport& report) {
  for (const CheckResult& result : report.results) {
    if (result.id == "load.se.header_generation" && result.outcome == Outcome::kPass) {
      if (auto it = result.details.find("generation"); it != result.details.end()) report.header_generation = it->second;
    }
  }
  for (const CheckResult& result : report.results) {
    const bool rejected = result.outcome == Outcome::kFail && result.tf_code.has_value();
    const bool dies = result.outcome == Outcome::kCrash || result.outcome == Outcome::kTimeout;
    if (!rejected && !dies) continue;
    nlohmann::json verdict = {{"loads", false}, {"check", result.id}, {"message", result.message}};
    if (rejected) verdict["code"] = *result.tf_code;
    verdict["summary"] = rejected ? "refuses the plugin (TF_Code " + std::to_string(*result.tf_code) +
                                        "): " + result.message
                                  : "its process dies with the plugin (" + std::string(ToString(result.outcome)) +
                                        " in " + result.id + ")";
    // The header generation behind a rejection, when the load tier found one: what to rebuild.
    if (auto it = result.details.find("layout_shift"); it != result.details.end()) {
      verdict["summary"] = verdict["summary"].get<std::string>() + " The plugin was " + it->second + ".";
    }
    report.tensorflow_verdict = std::move(verdict);
    return;
  }
  bool loaded = false;
  for (const CheckResult& result : report.results) loaded = loaded || (result.id == "load.library.dlopen" && result.outcome == Outcome::kPass);
  if (loaded) {
    report.tensorflow_verdict = nlohmann::json{{"loads", true}, {"summary", "loads the plugin"}};
  }
}

}  // namespace conformance
