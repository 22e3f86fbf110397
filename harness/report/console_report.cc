#include "report/console_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "installed_tensorflow/installed_verdict.h"
#include "model/outcome.h"
#include "report/number_format.h"
#include "report/op_coverage_console.h"
#include "report/terminal_colour.h"
#include "model/no_device.h"
#include "run/exit_code.h"
#include "run/root_causes.h"

namespace conformance {
namespace {

constexpr std::size_t kTagWidth = 16;  // "UNEXPECTED_PASS" and a space
const std::string kIndent(kTagWidth + 2, ' ');

std::string_view OutcomeColour(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass: return ansi::kGreen;
    case Outcome::kFail:
    case Outcome::kCrash:
    case Outcome::kTimeout:
    case Outcome::kUnexpectedPass:
    case Outcome::kFlaky: return ansi::kRed;
    case Outcome::kWarning: return ansi::kYellow;
    case Outcome::kWaived: return ansi::kCyan;
    case Outcome::kNotSupported:
    case Outcome::kSkipped: return ansi::kDim;
  }
  return {};
}

std::string Coloured(std::string_view text, std::string_view colour, const ConsoleStyle& style) {
  if (!style.colour || colour.empty()) return std::string(text);
  return std::string(colour) + std::string(text) + std::string(ansi::kReset);
}

// Plugin-provided text must not drive the terminal: control characters other than
// newline and tab are shown as \xNN instead of being emitted.
std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02X", byte);
      out += escape;
    } else {
      out += c;
    }
  }
  return out;
}

// Continuation lines of multi-line text line up under the first.
std::string Indented(std::string_view text, const std::string& indent) {
  std::string out;
  for (char c : Printable(text)) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

std::string Tag(Outcome outcome) {
  std::string tag(ToString(outcome));
  std::transform(tag.begin(), tag.end(), tag.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return tag;
}

std::string OriginLabel(const CheckEntry* entry) {
  if (entry == nullptr) return {};
  return entry->origin == Origin::kTensorFlow ? " [TensorFlow]" : " [stricter]";
}

bool ShowsDetails(Outcome outcome, const ConsoleStyle& style) {
  return style.verbose || BreaksConformance(outcome) || outcome == Outcome::kWarning;
}

// Detail keys a root cause's line already says ("mem_zero: callback not set (NULL)").
bool NamedByRootCause(std::string_view key) { return key == "failing_call" || key == "problem"; }

// cause_named: the result is one of the checks of a root cause listed above with its call, so
// its failing_call and problem are shown there once, not again under each check (without -v).
void WriteResult(std::ostream& out, const CheckResult& result, const ConsoleStyle& style,
                 const CheckLookup& lookup, bool cause_named = false) {
  std::string tag = Tag(result.outcome);
  tag.resize(std::max(tag.size(), kTagWidth), ' ');
  out << "  " << Coloured(tag, OutcomeColour(result.outcome), style) << Printable(result.id)
      << OriginLabel(Lookup(lookup, result.id));
  if (!result.message.empty()) out << ": " << Indented(result.message, kIndent);
  if (style.verbose) out << " (" << FormatSeconds(result.seconds) << " s)";
  out << '\n';
  if (!result.waiver_reason.empty()) {
    out << kIndent << "waiver: " << Indented(result.waiver_reason, kIndent) << '\n';
  }
  if (result.crash) {
    const CrashInfo& crash = *result.crash;
    out << kIndent << "signal: " << Printable(crash.signal) << '\n';
    if (!crash.last_call.empty()) {
      out << kIndent << "last call: " << Printable(crash.last_call) << '\n';
    }
    if (!crash.backtrace.empty()) {
      out << kIndent << "backtrace:\n";
      // Frames arrive numbered ("#0 lib.so: fn+0x10 (file.c:12)") from the symbolizer.
      for (const std::string& frame : crash.backtrace) {
        out << kIndent << "  " << Printable(frame) << '\n';
      }
    }
  }
  if (style.verbose && !result.plugin_output.empty()) {
    std::string output = result.plugin_output;
    while (!output.empty() && output.back() == '\n') output.pop_back();
    out << kIndent << "plugin output:\n"
        << kIndent << "  " << Indented(output, kIndent + "  ") << '\n';
  }
  if (!ShowsDetails(result.outcome, style)) return;
  if (result.tf_code) out << kIndent << "TF_Code: " << *result.tf_code << '\n';
  for (const auto& [key, value] : result.details) {
    if (cause_named && !style.verbose && NamedByRootCause(key)) continue;
    out << kIndent << Printable(key) << ": " << Indented(value, kIndent + "  ") << '\n';
  }
}

std::string JoinTiers(const std::vector<std::string>& tiers) {
  std::string text;
  for (const std::string& tier : tiers) text += (text.empty() ? "" : ",") + tier;
  return text.empty() ? "(none)" : text;
}

}  // namespace

void WriteConsoleHeader(std::ostream& out, const RunReport& header, const ConsoleStyle& style) {
  out << Coloured("plugin_conformance " + header.tool_version, ansi::kBold, style) << ": "
      << Printable(header.plugin_path) << " (profile " << header.profile << ", seed " << header.seed
      << ")\n";
  out << "  tiers " << JoinTiers(header.tiers) << "; filter " << Printable(header.filter);
  if (header.shard) {
    out << "; shard " << header.shard->index + 1 << " of " << header.shard->total;
  }
  out << "; " << header.jobs << (header.jobs == 1 ? " job" : " jobs") << "; timeout "
      << header.timeout_ms << " ms" << (header.isolation ? "" : "; NO isolation") << '\n';
  for (const std::string& co_loaded : header.co_loaded_plugins) {
    out << "  co-loaded first: " << Printable(co_loaded) << '\n';
  }
  if (header.repeat > 1) {
    out << "  every unit runs " << header.repeat
        << " times (--repeat); a check whose outcome varies is flaky\n";
  }
}

void WriteUnitProgress(std::ostream& out, const TestUnit& unit,
                       const std::vector<CheckResult>& reported, std::size_t done,
                       std::size_t total, const ConsoleStyle& style) {
  if (!style.verbose) return;
  const auto problems = std::count_if(reported.begin(), reported.end(),
                                      [](const auto& r) { return BreaksConformance(r.outcome); });
  const std::string total_text = std::to_string(total);
  std::string done_text = std::to_string(done);
  if (done_text.size() < total_text.size()) {
    done_text.insert(0, total_text.size() - done_text.size(), ' ');
  }
  out << '[' << done_text << '/' << total_text << "] " << unit.name << ": " << reported.size()
      << " reported";
  if (problems > 0)
    out << ", " << Coloured(std::to_string(problems) + " failing", ansi::kRed, style);
  out << '\n';
}

std::string CountsLine(const RunReport& report) {
  std::ostringstream line;
  line << report.results.size() << (report.results.size() == 1 ? " check" : " checks");
  const auto counts = report.Counts();
  const char* separator = ": ";
  for (Outcome outcome : kAllOutcomes) {
    const int count = counts.at(outcome);
    if (count == 0) continue;
    line << separator << count << ' ' << ToString(outcome);
    separator = ", ";
  }
  return line.str();
}

// Results that only say "did not run" for one shared reason (a missing entry point, a
// crashed prerequisite) come in long runs; without -v each run is one line, so the
// failures that caused them stay visible.
bool Collapsible(Outcome outcome) {
  return outcome == Outcome::kSkipped || outcome == Outcome::kNotSupported;
}

// A kernel case for an op or dtype the plugin registers no kernel for (its message names the op):
// one kind of absence however many ops it spans, so a plugin with a few kernels does not get a
// line for every op of the catalogue.
bool IsKernelAbsence(const CheckResult& result) {
  return result.outcome == Outcome::kNotSupported && result.id.starts_with("kernel.") &&
         (result.message.starts_with("the plugin registers no ") ||
          (result.message.starts_with("no ") &&
           result.message.find(" kernel registered for ") != std::string::npos));
}

// A check skipped because its prerequisite was itself skipped: the same cause, one step removed
// ("not run: prerequisite runtime.memory.host_allocate.sizes (skipped) did not pass").
bool IsSkippedBehindASkip(const CheckResult& result) {
  return result.outcome == Outcome::kSkipped &&
         result.message.starts_with("not run: prerequisite ") &&
         result.message.ends_with(" (skipped) did not pass");
}

// A run is anchored on its first result: the ones after it share its reason, or (for kernel
// absences) its kind, or were skipped behind a skip inside a run of skips with a reason of its
// own, so TensorFlow refusing the plugin is one line, not one per interleaved prerequisite.
bool SameRun(const CheckResult& a, const CheckResult& b) {
  if (a.outcome != b.outcome) return false;
  if (IsSkippedBehindASkip(b) && !IsSkippedBehindASkip(a)) return true;
  return a.message == b.message || (IsKernelAbsence(a) && IsKernelAbsence(b));
}

std::size_t RunLength(const std::vector<CheckResult>& results, std::size_t first) {
  std::size_t last = first + 1;
  while (last < results.size() && SameRun(results[first], results[last])) ++last;
  return last - first;
}

// The op of a kernel check id ("kernel.AddV2.float.basic" -> "AddV2").
std::string_view KernelOp(std::string_view id) {
  id.remove_prefix(std::string_view("kernel.").size());
  return id.substr(0, id.find('.'));
}

void WriteCollapsed(std::ostream& out, const std::vector<CheckResult>& results, std::size_t begin,
                    std::size_t count, const ConsoleStyle& style) {
  const CheckResult& first = results[begin];
  const CheckResult& last = results[begin + count - 1];
  std::string tag = Tag(first.outcome);
  tag.resize(std::max(tag.size(), kTagWidth), ' ');
  out << "  " << Coloured(tag, OutcomeColour(first.outcome), style) << Printable(first.id)
      << " ... " << Printable(last.id) << " (" << count << " checks)";
  std::string message = first.message;
  if (IsKernelAbsence(first) && last.message != first.message) {  // several ops or dtypes
    std::vector<std::string_view> ops;
    for (std::size_t i = begin; i < begin + count; ++i) {
      const std::string_view op = KernelOp(results[i].id);
      if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
    }
    message = "no kernel registered on the plugin's device for these ops or dtypes (" +
              std::to_string(ops.size()) + (ops.size() == 1 ? " op" : " ops") + "; -v lists each)";
  }
  const auto behind = std::count_if(
      results.begin() + static_cast<std::ptrdiff_t>(begin),
      results.begin() + static_cast<std::ptrdiff_t>(begin + count),
      [&](const CheckResult& r) { return r.message != first.message && IsSkippedBehindASkip(r); });
  if (behind > 0) {
    message +=
        "; " + std::to_string(behind) + " of them behind a prerequisite skipped so (-v lists each)";
  }
  if (!message.empty()) out << ": " << Indented(message, kIndent);
  out << '\n';
}

// "create_stream: out-parameter never written" (or the message, for a failure without the
// keys), then the checks it explains.
// The vendor's declarations, so whoever reads a pass knows which tolerance it was held to.
void WriteDeclaredPrecision(std::ostream& out, const std::vector<DeclaredPrecision>& declared) {
  if (declared.empty()) return;
  out << "Declared precision (--precision):\n";
  for (const DeclaredPrecision& d : declared) {
    char bounds[96];
    std::snprintf(bounds, sizeof bounds, "rtol=%.3g atol=%.3g ulp=%llu", d.rtol, d.atol,
                  static_cast<unsigned long long>(d.ulp));
    out << "  " << d.op << " " << d.dtype
        << (d.scenario.empty() ? "" : " (scenario " + Printable(d.scenario) + ")") << ": " << bounds
        << " (" << Printable(d.reason) << "; " << Printable(d.source) << ")\n";
  }
  out << '\n';
}

// --tensorflow: the installed TensorFlow's line under the emulated one, and, when the two
// disagree, the finding against the suite with both texts.
void WriteInstalledTensorFlow(std::ostream& out, const nlohmann::json& installed,
                              const ConsoleStyle& style) {
  out << "TensorFlow " << Printable(installed.value("release", "?"))
      << " (installed): " << Printable(installed.value("summary", "")) << '\n';
  if (installed.contains("kernels")) {
    out << "TensorFlow " << Printable(installed.value("release", "?")) << " (installed): "
        << Printable(tensorflow_driver::InstalledKernelsSummary(installed.at("kernels"))) << '\n';
  }
  if (installed.contains("models")) {
    out << "TensorFlow " << Printable(installed.value("release", "?")) << " (installed): "
        << Printable(tensorflow_driver::InstalledModelsSummary(installed.at("models"))) << '\n';
  }
  if (installed.contains("step_limit_ms")) {
    out << "TensorFlow " << Printable(installed.value("release", "?"))
        << " (installed): time limits: " << installed.value("step_limit_ms", 0)
        << " ms per case or step (--timeout), " << installed.value("session_limit_ms", 0)
        << " ms for the session (that for each step)\n";
  }
  if (installed.contains("different_releases")) {
    out << "Different releases: " << Printable(installed.value("different_releases", "")) << '\n';
  }
  if (installed.contains("finding")) {
    out << Coloured("FINDING against the suite:",
                    std::string(ansi::kBold) + std::string(ansi::kYellow), style)
        << ' ' << Printable(installed.value("finding", "")) << '\n';
  }
}

void WriteRootCauses(std::ostream& out, const std::vector<RootCause>& causes,
                     const ConsoleStyle& style) {
  if (causes.empty()) return;
  out << Coloured(std::to_string(causes.size()) +
                      (causes.size() == 1 ? " root cause:" : " root causes:"),
                  ansi::kBold, style)
      << '\n';
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const RootCause& cause = causes[i];
    const std::string number = std::to_string(i + 1) + ". ";
    const std::string indent(2 + number.size(), ' ');
    out << "  " << number;
    if (!cause.call.empty()) {
      out << Printable(RootCauseLabel(cause));
    } else {
      out << Indented(cause.message, indent);
    }
    out << " (" << cause.checks.size() << (cause.checks.size() == 1 ? " check" : " checks")
        << ")\n";
    if (!cause.call.empty() && !cause.message.empty()) {
      out << indent << Indented(cause.message, indent) << '\n';
    }
    out << indent << "checks:";
    for (const std::string& check : cause.checks) out << ' ' << Printable(check);
    out << '\n';
  }
  out << '\n';
}

// First in the summary when the run could not judge everything: why, and what to do. A plugin
// that did not load, or loaded with no device, would otherwise read as pages of skipped checks.
void WriteWhyAndWhatToDo(std::ostream& out, const RunReport& report, const ConsoleStyle& style) {
  if (!report.PluginLoaded() && !report.JudgedInInstalledTensorFlowOnly()) {
    const bool unknown_here =
        report.tensorflow_verdict && report.tensorflow_verdict->value("unknown", false);
    // A release that lacks what the plugin imports: built for another release, most likely.
    const bool other_release = report.load_failure.starts_with("load.library.imports:") &&
                               report.load_failure.find(" does not export") != std::string::npos;
    std::string what_to_do =
        "fix what the load.library check below says; no other tier can run until the plugin "
        "loads";
    if (unknown_here) {
      what_to_do =
          "judge it in TensorFlow (--tensorflow DIR|auto); docs/tensorflow/plugin_imports.md "
          "lists what the mock core hosts";
    } else if (other_release) {
      what_to_do =
          "this release does not export what the plugin imports: judge it against the release it "
          "was built for (--profile; --matrix shows which releases load it), or rebuild it for "
          "this one";
    }
    std::string why = report.load_failure;
    if (unknown_here) {
      why = report.tensorflow_verdict->value("summary", "");
      constexpr std::string_view kUnknownHere = "unknown here: ";
      if (why.starts_with(kUnknownHere)) why.erase(0, kUnknownHere.size());
    }
    out << Coloured(unknown_here ? "Not judged here:" : "The plugin did not load:",
                    std::string(ansi::kBold) + std::string(ansi::kRed), style)
        << ' ' << Printable(why) << "\n  What to do: " << what_to_do << "\n\n";
    return;
  }
  if (report.no_device.empty()) return;
  const std::vector<std::string> not_run = report.DeviceTiersNotRun();
  std::string tiers;
  for (const std::string& tier : not_run) tiers += (tiers.empty() ? "" : ", ") + tier;
  out << Coloured("No device:", std::string(ansi::kBold) + std::string(ansi::kYellow), style) << ' '
      << report.no_device << ".\n"
      << "  Judged without a device: load (kernel registrations included), graph, profiler. "
      << (tiers.empty() ? std::string("No device tier was selected.") : "Not run: " + tiers + ".")
      << "\n  What to do: run on a machine with the device for the device tiers; on a runner "
         "without it, gate on --tier "
      << kDeviceFreeTiers << " (exit 0 when those are conformant).\n\n";
}

void WriteConsoleSummary(std::ostream& out, const RunReport& report, const ConsoleStyle& style,
                         const CheckLookup& lookup) {
  WriteWhyAndWhatToDo(out, report, style);
  const std::vector<RootCause> causes = GroupRootCauses(report.results);
  WriteRootCauses(out, causes, style);
  std::set<std::string_view> cause_named;
  for (const RootCause& cause : causes) {
    if (cause.call.empty()) continue;
    cause_named.insert(cause.checks.begin(), cause.checks.end());
  }
  bool listed_any = false;
  const std::vector<CheckResult>& results = report.results;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult& result = results[i];
    if (result.outcome == Outcome::kPass && !style.verbose) continue;
    listed_any = true;
    if (!style.verbose && Collapsible(result.outcome)) {
      const std::size_t count = RunLength(results, i);
      if (count > 2) {
        WriteCollapsed(out, results, i, count, style);
        i += count - 1;
        continue;
      }
    }
    WriteResult(out, result, style, lookup, cause_named.contains(result.id));
  }
  if (listed_any) out << '\n';
  const CoverageTable coverage = BuildCoverageTable(report.results);
  std::optional<RegisteredCoverage> registered;
  if (report.registered_kernels) {
    registered = JudgeRegisteredCells(*report.registered_kernels, coverage, report.results,
                                      report.installed_tensorflow.has_value());
  }
  WriteCoverageTable(out, coverage, style.verbose, style.colour,
                     registered ? &*registered : nullptr);
  WriteDeclaredPrecision(out, report.declared_precision);
  out << CountsLine(report) << " in " << FormatSeconds(report.wall_seconds) << " s (seed "
      << report.seed << ")\n";
  if (report.tensorflow_verdict && report.tensorflow_verdict->contains("summary")) {
    const std::string summary = report.tensorflow_verdict->at("summary").get<std::string>();
    out << "TensorFlow: " << summary;
    // TensorFlow's own message often ends a sentence ("... must be set."): start a new one.
    if (report.header_generation) {
      out << (summary.ends_with('.') ? " Built against " : "; built against ")
          << *report.header_generation << " headers";
    }
    out << '\n';
  }
  if (report.installed_tensorflow)
    WriteInstalledTensorFlow(out, *report.installed_tensorflow, style);
  if (report.ConformantWithoutDevice()) {
    out << Coloured("CONFORMANT IN THE DEVICE-FREE TIERS ONLY",
                    std::string(ansi::kBold) + std::string(ansi::kGreen), style)
        << ": the plugin reported 0 devices; the device tiers were not selected\n";
    return;
  }
  if (report.Conformant()) {
    out << Coloured("CONFORMANT", std::string(ansi::kBold) + std::string(ansi::kGreen), style)
        << '\n';
    return;
  }
  if (report.WantsOnlyADevice()) {
    out << Coloured("NO DEVICE", std::string(ansi::kBold) + std::string(ansi::kYellow), style)
        << " (not conformant, exit 5): " << report.NotConformantReason() << '\n';
    return;
  }
  out << Coloured("NOT CONFORMANT", std::string(ansi::kBold) + std::string(ansi::kRed), style)
      << ": " << report.NotConformantReason();
  if (!report.load_failure.empty() && !PluginNotLoaded(report.results)) {
    out << " (" << Printable(report.load_failure) << ')';
  }
  out << '\n';
}

}  // namespace conformance
