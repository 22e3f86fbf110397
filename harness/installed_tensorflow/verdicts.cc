#include "installed_tensorflow/verdicts.h"

#include <algorithm>
#include <string_view>
#include <vector>

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

// One "allowed=[...]" list's entries, split at ", ".
std::vector<std::string> Entries(std::string_view list) {
  std::vector<std::string> entries;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(", ", at), list.size());
    entries.emplace_back(list.substr(at, comma - at));
    at = comma + 2;
  }
  return entries;
}

bool IsNumber(std::string_view entry) {
  return !entry.empty() &&
         std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// TensorFlow's entries against ours, in order: a DT_ name matches itself, a number (2.10.1 prints
// one where it lost some of the list) one or more of ours.
bool EntriesAgree(const std::vector<std::string>& theirs, std::size_t t,
                  const std::vector<std::string>& ours, std::size_t o) {
  if (t == theirs.size()) return o == ours.size();
  if (!IsNumber(theirs[t])) {
    return o < ours.size() && theirs[t] == ours[o] && EntriesAgree(theirs, t + 1, ours, o + 1);
  }
  for (std::size_t end = o + 1; end <= ours.size(); ++end) {
    if (EntriesAgree(theirs, t + 1, ours, end)) return true;
  }
  return false;
}

// Equal character for character, or equal but for TensorFlow's allowed-type lists that hold a
// number among the DT_ names (TensorFlow 2.10.1 renders Mean's T as "DT_INT16,
// 6034766930529145842, DT_UINT16", 11 entries for 17): such a list agrees with ours when its
// DT_ names are ours in the same order, each number standing for one or more of ours.
bool MessagesAgree(const std::string& theirs, const std::string& ours) {
  if (theirs == ours) return true;
  static constexpr std::string_view kOpen = "allowed=[";
  std::size_t t = 0;
  std::size_t o = 0;
  bool lenient = false;
  while (true) {
    const std::size_t t_list = theirs.find(kOpen, t);
    const std::size_t o_list = ours.find(kOpen, o);
    if (t_list == std::string::npos || o_list == std::string::npos) {
      return lenient && t_list == o_list && theirs.compare(t, std::string::npos, ours, o) == 0;
    }
    if (theirs.compare(t, t_list - t, ours, o, o_list - o) != 0) return false;
    const std::size_t t_begin = t_list + kOpen.size();
    const std::size_t o_begin = o_list + kOpen.size();
    const std::size_t t_end = theirs.find(']', t_begin);
    const std::size_t o_end = ours.find(']', o_begin);
    if (t_end == std::string::npos || o_end == std::string::npos) return false;
    const auto their_entries = Entries(std::string_view(theirs).substr(t_begin, t_end - t_begin));
    const auto our_entries = Entries(std::string_view(ours).substr(o_begin, o_end - o_begin));
    if (std::any_of(their_entries.begin(), their_entries.end(), IsNumber)) {
      if (!EntriesAgree(their_entries, 0, our_entries, 0)) return false;
      lenient = true;
    } else if (their_entries != our_entries) {
      return false;
    }
    t = t_end;
    o = o_end;
  }
}

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
    if (tensorflow.code != ours.code) return false;
    if (MessagesAgree(tensorflow.message, ours.message)) return true;
    return std::any_of(ours.message_alternatives.begin(), ours.message_alternatives.end(),
                       [&](const std::string& alternative) {
                         return MessagesAgree(tensorflow.message, alternative);
                       });
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
  for (const json& alternative : verdict.value("message_alternatives", json::array()))
    refusal.message_alternatives.push_back(alternative.get<std::string>());
  return refusal;
}

}  // namespace tensorflow_driver
