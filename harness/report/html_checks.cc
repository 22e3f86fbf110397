#include "report/html_checks.h"

#include <algorithm>
#include <map>
#include <vector>

#include "report/html_text.h"

namespace conformance {
namespace {

using nlohmann::ordered_json;

// Problems first, so the filter reads from what matters to what does not.
constexpr const char* kOutcomeOrder[] = {"fail",    "crash",   "timeout", "unexpected_pass",
                                         "flaky",   "warning", "waived",  "not_supported",
                                         "skipped", "pass"};

// Detail keys shown in their own place rather than in the generic list.
bool ShownElsewhere(const std::string& key) { return key == "seed"; }

void AppendDefinition(std::string& html, const char* term, const std::string& text) {
  if (text.empty()) return;
  html += "<dt>" + std::string(term) + "</dt><dd>" + Html(text) + "</dd>";
}

void AppendFilters(std::string& html, const ordered_json& results) {
  std::map<std::string, int> outcome_counts;
  std::vector<std::pair<std::string, int>> tiers;  // first-seen order
  for (const ordered_json& result : results) {
    ++outcome_counts[FieldText(result, "outcome")];
    const std::string tier = ResultTier(result);
    auto found = std::find_if(tiers.begin(), tiers.end(),
                              [&](const auto& entry) { return entry.first == tier; });
    if (found == tiers.end()) {
      tiers.emplace_back(tier, 1);
    } else {
      ++found->second;
    }
  }
  html += "<div class=\"filters\"><fieldset id=\"outcome-filter\"><legend>Outcome</legend>";
  std::vector<std::string> outcomes(std::begin(kOutcomeOrder), std::end(kOutcomeOrder));
  for (const auto& [outcome, count] : outcome_counts) {  // any outcome a newer format adds
    if (std::find(outcomes.begin(), outcomes.end(), outcome) == outcomes.end()) {
      outcomes.push_back(outcome);
    }
  }
  for (const std::string& outcome : outcomes) {
    const auto found = outcome_counts.find(outcome);
    if (found == outcome_counts.end()) continue;
    html += "<label><input type=\"checkbox\" name=\"outcome\" value=\"" + HtmlAttribute(outcome) +
            "\" checked> <span class=\"badge " + HtmlAttribute(outcome) + "\">" + Html(outcome) +
            "</span> " + std::to_string(found->second) + "</label>";
  }
  html +=
      "</fieldset><button type=\"button\" id=\"show-problems\">problems only</button> "
      "<button type=\"button\" id=\"show-all\">all</button> "
      "<label>Tier <select id=\"tier-filter\"><option value=\"\">all tiers</option>";
  for (const auto& [tier, count] : tiers) {
    html += "<option value=\"" + HtmlAttribute(tier) + "\">" + Html(tier) + " (" +
            std::to_string(count) + ")</option>";
  }
  html += "</select></label><span id=\"visible-count\"></span></div>\n";
}

void AppendFolded(std::string& html, const ordered_json& result, const CheckLookup& lookup) {
  const std::string id = FieldText(result, "id");
  const CheckEntry* entry = Lookup(lookup, id);
  std::string body;
  if (entry != nullptr) {
    AppendDefinition(body, "rule", entry->rule);
    AppendDefinition(body, "TensorFlow", entry->tensorflow);
    AppendDefinition(body, "how to fix", entry->fix);
    if (entry->origin == Origin::kStricter)
      AppendDefinition(body, "consequence", entry->consequence);
  }
  const ordered_json& details = result.contains("details") ? result.at("details") : ordered_json();
  AppendDefinition(body, "seed", FieldText(details, "seed"));
  AppendDefinition(body, "TF_Code", FieldText(result, "tf_code"));
  AppendDefinition(body, "waiver", FieldText(result, "waiver_reason"));
  if (details.is_object()) {
    for (const auto& [key, value] : details.items()) {
      if (!ShownElsewhere(key)) AppendDefinition(body, key.c_str(), JsonDisplayText(value));
    }
  }
  std::string blocks;
  if (result.contains("crash")) {
    const ordered_json& crash = result.at("crash");
    blocks += "<p>crash: " + Html(FieldText(crash, "signal"));
    if (const std::string call = FieldText(crash, "last_call"); !call.empty()) {
      blocks += ", last plugin call in flight: <code>" + Html(call) + "</code>";
    }
    blocks += "</p>";
    if (crash.contains("backtrace") && crash.at("backtrace").is_array() &&
        !crash.at("backtrace").empty()) {
      std::string frames;
      for (const auto& frame : crash.at("backtrace")) frames += JsonDisplayText(frame) + "\n";
      blocks += "<pre class=\"backtrace\">" + Html(frames) + "</pre>";
    }
  }
  if (const std::string output = FieldText(result, "plugin_output"); !output.empty()) {
    blocks += "<p>the plugin printed:</p><pre class=\"plugin-output\">" + Html(output) + "</pre>";
  }
  if (body.empty() && blocks.empty()) return;
  // Problems open by default: that is what a reviewer opens the report for.
  const std::string outcome = FieldText(result, "outcome");
  const bool problem = outcome != "pass" && outcome != "not_supported" && outcome != "skipped";
  html += problem && !blocks.empty() ? "<details open>" : "<details>";
  html += "<summary>details</summary>";
  if (!body.empty()) html += "<dl class=\"catalogue\">" + body + "</dl>";
  html += blocks + "</details>";
}

}  // namespace

std::string ResultTier(const ordered_json& result) {
  if (std::string tier = FieldText(result, "tier"); !tier.empty()) return tier;
  const std::string id = FieldText(result, "id");
  return id.substr(0, id.find('.'));
}

std::string CheckAnchor(const std::string& check_id) { return "check-" + check_id; }

void AppendCheckSection(std::string& html, const ordered_json& report, const CheckLookup& lookup) {
  static const ordered_json kNoResults = ordered_json::array();
  const ordered_json& results = report.contains("results") && report.at("results").is_array()
                                    ? report.at("results")
                                    : kNoResults;
  html += "<section id=\"checks\"><h2>Checks</h2>\n";
  AppendFilters(html, results);
  html +=
      "<table id=\"check-table\"><thead><tr><th>outcome</th><th>check</th><th>tier</th>"
      "<th>message</th></tr></thead><tbody>\n";
  for (const ordered_json& result : results) {
    const std::string id = FieldText(result, "id");
    const std::string outcome = FieldText(result, "outcome");
    const std::string tier = ResultTier(result);
    html += "<tr class=\"check\" id=\"" + HtmlAttribute(CheckAnchor(id)) + "\" data-outcome=\"" +
            HtmlAttribute(outcome) + "\" data-tier=\"" + HtmlAttribute(tier) + "\"><td><span " +
            "class=\"badge " + HtmlAttribute(outcome) + "\">" + Html(outcome) +
            "</span></td><td class=\"id\">" + Html(id);
    if (const std::string origin = FieldText(result, "origin"); !origin.empty()) {
      html += "<span class=\"origin\">" + Html(origin) + "</span>";
    }
    html += "</td><td>" + Html(tier) + "</td><td>" + Html(FieldText(result, "message"));
    AppendFolded(html, result, lookup);
    html += "</td></tr>\n";
  }
  html += "</tbody></table></section>\n";
}

}  // namespace conformance
