#include "model/check_result.h"

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace conformance {

// Fields that are always meaningful are always written so consumers see one stable shape;
// only std::optional members are left out when empty. Readers accept missing fields (except
// the identity of the result) so older or hand-written records still load.

void to_json(nlohmann::json& json, const CrashInfo& crash) {
  json = nlohmann::json{
      {"signal", crash.signal},
      {"last_call", crash.last_call},
      {"backtrace", crash.backtrace},
  };
}

void from_json(const nlohmann::json& json, CrashInfo& crash) {
  crash = CrashInfo{};
  crash.signal = json.value("signal", std::string{});
  crash.last_call = json.value("last_call", std::string{});
  if (auto it = json.find("backtrace"); it != json.end()) {
    it->get_to(crash.backtrace);
  }
}

void to_json(nlohmann::json& json, const CheckResult& result) {
  json = nlohmann::json{
      {"id", result.id},           {"outcome", std::string(ToString(result.outcome))},
      {"message", result.message}, {"details", result.details},
      {"seconds", result.seconds}, {"waiver_reason", result.waiver_reason},
  };
  if (result.tf_code) json["tf_code"] = *result.tf_code;
  if (result.crash) json["crash"] = *result.crash;
  if (!result.plugin_output.empty()) json["plugin_output"] = result.plugin_output;
}

void from_json(const nlohmann::json& json, CheckResult& result) {
  result = CheckResult{};
  json.at("id").get_to(result.id);
  const auto outcome_text = json.at("outcome").get<std::string>();
  const auto outcome = OutcomeFromString(outcome_text);
  if (!outcome) {
    throw std::invalid_argument("unknown outcome \"" + outcome_text + "\" in result " + result.id);
  }
  result.outcome = *outcome;
  result.message = json.value("message", std::string{});
  if (auto it = json.find("tf_code"); it != json.end() && !it->is_null()) {
    result.tf_code = it->get<int>();
  }
  if (auto it = json.find("details"); it != json.end()) {
    it->get_to(result.details);
  }
  result.seconds = json.value("seconds", 0.0);
  if (auto it = json.find("crash"); it != json.end() && !it->is_null()) {
    result.crash = it->get<CrashInfo>();
  }
  result.waiver_reason = json.value("waiver_reason", std::string{});
  result.plugin_output = json.value("plugin_output", std::string{});
}

}  // namespace conformance
