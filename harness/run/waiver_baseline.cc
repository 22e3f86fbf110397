#include "run/waiver_baseline.h"

#include <nlohmann/json.hpp>
#include <set>

#include "model/outcome.h"

namespace conformance {
namespace {

// A YAML double-quoted scalar: JSON's string escapes are a subset of YAML's.
std::string Quoted(const std::string& text) { return nlohmann::json(text).dump(); }

// One line of the failure message, short enough for a comment.
std::string CommentText(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  constexpr std::size_t kLimit = 200;
  if (line.size() > kLimit) line = line.substr(0, kLimit) + "...";
  return line;
}

bool BelongsInBaseline(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kCrash || outcome == Outcome::kTimeout ||
         outcome == Outcome::kWaived;
}

}  // namespace

std::string RenderWaiverBaseline(const std::vector<CheckResult>& results,
                                 const std::string& plugin) {
  std::string text =
      "# Written by plugin_conformance --write-waivers: the failures of " + plugin +
      ".\n# Replace each placeholder reason with the real one (a ticket), and delete entries\n"
      "# as they are fixed: a waived check that passes is an unexpected_pass.\n";
  std::set<std::string> written;
  for (const CheckResult& result : results) {
    if (!BelongsInBaseline(result.outcome) || !written.insert(result.id).second) continue;
    const bool waived = result.outcome == Outcome::kWaived && !result.waiver_reason.empty();
    text += "- id: " + Quoted(result.id) + "\n";
    if (!result.message.empty()) {
      text += "  # " + std::string(ToString(result.outcome)) + ": " + CommentText(result.message) +
              "\n";
    }
    text += "  reason: " + Quoted(waived ? result.waiver_reason : kWaiverReasonPlaceholder) + "\n";
  }
  if (written.empty()) text += "[]\n";
  return text;
}

}  // namespace conformance
