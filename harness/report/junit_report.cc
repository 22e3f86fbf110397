#include "report/junit_report.h"

#include "installed_tensorflow/installed_verdict.h"

#include <map>
#include <sstream>
#include <string_view>
#include <vector>

#include "model/outcome.h"
#include "report/number_format.h"
#include "report/xml_escape.h"
#include "run/root_causes.h"

namespace conformance {
namespace {

std::string Attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + XmlEscape(value, XmlContext::kAttribute) + "\"";
}

std::string Text(std::string_view text) { return XmlEscape(text, XmlContext::kText); }

// The unit's tier when the run layer recorded it, else the id's first component.
std::string TierOf(const CheckResult& result) {
  if (!result.tier.empty()) return result.tier;
  return result.id.substr(0, result.id.find('.'));
}

// "root cause 2 of 3: create_stream: out-parameter never written (shared by 14 checks)".
using RootCauseNotes = std::map<std::string, std::string, std::less<>>;

RootCauseNotes NotesByCheck(const std::vector<RootCause>& causes) {
  RootCauseNotes notes;
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const RootCause& cause = causes[i];
    std::string note =
        "root cause " + std::to_string(i + 1) + " of " + std::to_string(causes.size()) + ": ";
    note += cause.call.empty() ? cause.message : RootCauseLabel(cause);
    if (cause.checks.size() > 1) {
      note += " (shared by " + std::to_string(cause.checks.size()) + " checks)";
    }
    for (const std::string& check : cause.checks) notes.emplace(check, note);
  }
  return notes;
}

struct CaseName {
  std::string classname;
  std::string name;
};

CaseName SplitId(const std::string& id) {
  const std::size_t dot = id.rfind('.');
  if (dot == std::string::npos) return {id, id};  // a one-component id names both
  return {id.substr(0, dot), id.substr(dot + 1)};
}

struct Tally {
  int tests = 0;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
  double seconds = 0;

  void Add(const CheckResult& result) {
    ++tests;
    seconds += result.seconds;
    switch (result.outcome) {
      case Outcome::kFail:
      case Outcome::kUnexpectedPass:
      case Outcome::kFlaky: ++failures; break;
      case Outcome::kCrash:
      case Outcome::kTimeout: ++errors; break;
      case Outcome::kNotSupported:
      case Outcome::kSkipped:
      case Outcome::kWaived: ++skipped; break;
      case Outcome::kPass:
      case Outcome::kWarning: break;
    }
  }

  std::string Attributes() const {
    return Attr("tests", std::to_string(tests)) + Attr("failures", std::to_string(failures)) +
           Attr("errors", std::to_string(errors)) + Attr("skipped", std::to_string(skipped));
  }
};

// Everything a CI user needs to act on a problem without opening the JSON report.
std::string Body(const CheckResult& result, const CheckEntry* entry, const RootCauseNotes& notes) {
  std::ostringstream body;
  if (auto note = notes.find(result.id); note != notes.end()) body << note->second << '\n';
  if (!result.message.empty()) body << result.message << '\n';
  if (result.tf_code) body << "TF_Code: " << *result.tf_code << '\n';
  for (const auto& [key, value] : result.details) body << key << ": " << value << '\n';
  if (!result.waiver_reason.empty()) body << "waiver: " << result.waiver_reason << '\n';
  if (result.crash) {
    body << "signal: " << result.crash->signal << '\n';
    if (!result.crash->last_call.empty()) body << "last call: " << result.crash->last_call << '\n';
    // Frames arrive numbered from the symbolizer ("#0 lib.so: fn+0x10", "#2-#63 same as #1").
    for (const std::string& frame : result.crash->backtrace) body << "  " << frame << '\n';
  }
  if (entry != nullptr) {
    body << "origin: " << ToString(entry->origin) << '\n';
    if (!entry->rule.empty()) body << "rule: " << entry->rule << '\n';
    if (!entry->fix.empty()) body << "fix: " << entry->fix << '\n';
  }
  return body.str();
}

std::string ShortMessage(const CheckResult& result) {
  if (result.outcome == Outcome::kWaived) {
    return "waived: " + result.waiver_reason +
           (result.message.empty() ? "" : " (" + result.message + ")");
  }
  if (!result.message.empty()) return result.message;
  if (result.crash) return result.crash->signal;
  return std::string(ToString(result.outcome));
}

// What the unit's process printed, on the unit's first result (isolate/captured_output.h).
std::string PluginOutput(const CheckResult& result) {
  if (result.plugin_output.empty()) return "";
  return "      <system-out>" + Text("plugin output:\n" + result.plugin_output) + "</system-out>\n";
}

void WriteTestCase(std::ostream& out, const CheckResult& result, const CheckLookup& lookup,
                   const RootCauseNotes& notes) {
  const CaseName name = SplitId(result.id);
  out << "    <testcase" << Attr("classname", name.classname) << Attr("name", name.name)
      << Attr("time", FormatSeconds(result.seconds));
  const CheckEntry* entry = Lookup(lookup, result.id);
  const std::string type(ToString(result.outcome));
  const std::string output = PluginOutput(result);
  switch (result.outcome) {
    case Outcome::kPass:
      out << (output.empty() ? "/>\n" : ">\n" + output + "    </testcase>\n");
      return;
    case Outcome::kWarning:
      out << ">\n      <system-out>" << Text("warning: " + Body(result, entry, notes))
          << "</system-out>\n"
          << output << "    </testcase>\n";
      return;
    case Outcome::kFail:
    case Outcome::kUnexpectedPass:
    case Outcome::kFlaky:  // <failure type="flaky">, the outcomes seen in its message
    case Outcome::kCrash:
    case Outcome::kTimeout: {
      const bool error = result.outcome == Outcome::kCrash || result.outcome == Outcome::kTimeout;
      const char* element = error ? "error" : "failure";
      out << ">\n      <" << element << Attr("message", ShortMessage(result)) << Attr("type", type)
          << ">" << Text(Body(result, entry, notes)) << "</" << element << ">\n"
          << output << "    </testcase>\n";
      return;
    }
    case Outcome::kNotSupported:
    case Outcome::kSkipped:
    case Outcome::kWaived:
      out << ">\n      <skipped" << Attr("message", ShortMessage(result)) << "/>\n"
          << output << "    </testcase>\n";
      return;
  }
}

void WriteProperties(std::ostream& out, const RunReport& report,
                     const std::vector<RootCause>& causes) {
  std::vector<std::pair<std::string, std::string>> properties = {
      {"plugin", report.plugin_path},
      {"profile", report.profile},
      {"seed", std::to_string(report.seed)},
      {"tool_version", report.tool_version},
      {"tiers",
       [&] {
         std::string tiers;
         for (const std::string& tier : report.tiers) tiers += (tiers.empty() ? "" : ",") + tier;
         return tiers;
       }()},
      {"filter", report.filter},
      {"conformant", report.Conformant() ? "true" : "false"},
  };
  for (const std::string& co_loaded : report.co_loaded_plugins) {
    properties.emplace_back("co_loaded_plugin", co_loaded);
  }
  if (report.shard) {
    properties.emplace_back(
        "shard", std::to_string(report.shard->index) + "/" + std::to_string(report.shard->total));
  }
  if (report.header_generation)
    properties.emplace_back("header_generation", *report.header_generation);
  if (report.tensorflow_verdict && report.tensorflow_verdict->contains("summary")) {
    properties.emplace_back("tensorflow", report.tensorflow_verdict->value("summary", ""));
  }
  if (report.installed_tensorflow) {
    const nlohmann::json& installed = *report.installed_tensorflow;
    properties.emplace_back("installed_tensorflow", installed.value("release", ""));
    properties.emplace_back("installed_tensorflow_verdict", installed.value("summary", ""));
    if (installed.contains("kernels")) {
      properties.emplace_back("installed_tensorflow_kernels",
                              tensorflow_driver::InstalledKernelsSummary(installed.at("kernels")));
    }
    if (installed.contains("models")) {
      properties.emplace_back("installed_tensorflow_models",
                              tensorflow_driver::InstalledModelsSummary(installed.at("models")));
    }
    if (installed.contains("finding"))
      properties.emplace_back("installed_tensorflow_finding", installed.value("finding", ""));
  }
  if (!report.Conformant()) {
    properties.emplace_back("not_conformant_reason", report.NotConformantReason());
  }
  if (!report.no_device.empty()) {
    std::string not_run;
    for (const std::string& tier : report.DeviceTiersNotRun())
      not_run += (not_run.empty() ? "" : ",") + tier;
    properties.emplace_back("no_device", report.no_device);
    properties.emplace_back("device_tiers_not_run", not_run.empty() ? "none selected" : not_run);
  }
  for (const RootCause& cause : causes) {
    std::string value = cause.call.empty() ? cause.message : RootCauseLabel(cause);
    value += " [checks:";
    for (const std::string& check : cause.checks) value += " " + check;
    value += "]";
    properties.emplace_back("root_cause", value);
  }
  out << "    <properties>\n";
  for (const auto& [name, value] : properties) {
    out << "      <property" << Attr("name", name) << Attr("value", value) << "/>\n";
  }
  out << "    </properties>\n";
}

}  // namespace

std::string RenderJUnitReport(const RunReport& report, const CheckLookup& lookup) {
  // Group by tier, keeping the order in which tiers first appear (suite order).
  std::vector<std::string> tiers;
  std::map<std::string, std::vector<const CheckResult*>, std::less<>> by_tier;
  Tally total;
  for (const CheckResult& result : report.results) {
    const std::string tier = TierOf(result);
    auto [slot, inserted] = by_tier.try_emplace(tier);
    if (inserted) tiers.push_back(tier);
    slot->second.push_back(&result);
    total.Add(result);
  }

  const std::vector<RootCause> causes = GroupRootCauses(report.results);
  const RootCauseNotes notes = NotesByCheck(causes);
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites" << Attr("name", "plugin_conformance") << total.Attributes()
      << Attr("time", FormatSeconds(report.wall_seconds));
  if (!report.started_at.empty()) out << Attr("timestamp", report.started_at);
  out << ">\n";
  for (std::size_t index = 0; index < tiers.size(); ++index) {
    Tally tally;
    for (const CheckResult* result : by_tier[tiers[index]]) tally.Add(*result);
    out << "  <testsuite" << Attr("name", tiers[index]) << tally.Attributes()
        << Attr("time", FormatSeconds(tally.seconds)) << Attr("id", std::to_string(index))
        << Attr("package", tiers[index]);
    if (!report.started_at.empty()) out << Attr("timestamp", report.started_at);
    if (!report.host.node.empty()) out << Attr("hostname", report.host.node);
    out << ">\n";
    WriteProperties(out, report, causes);
    for (const CheckResult* result : by_tier[tiers[index]]) {
      WriteTestCase(out, *result, lookup, notes);
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace conformance
