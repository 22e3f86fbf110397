#include "installed_tensorflow/installed_verdict.h"

#include "scenario/status_codes.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

// Whether TensorFlow's refusal was a FATAL log line and an abort rather than a returned status:
// at load (`aborted`) or at the first use of a plugin it loaded (`devices_outcome` aborted).
bool Aborted(const json& driver_result) {
  return driver_result.value("outcome", "") == "aborted" ||
         (driver_result.value("outcome", "") == "loaded" &&
          driver_result.value("devices_outcome", "") == "aborted");
}

std::string StatusText(const Verdict& verdict) {
  return (verdict.code ? conformance::scenario::CodeName(*verdict.code) + ": " : std::string()) +
         verdict.message;
}

std::string KindName(Verdict::Kind kind) {
  switch (kind) {
    case Verdict::Kind::kLoads: return "loads";
    case Verdict::Kind::kRefuses: return "refuses";
    case Verdict::Kind::kDies: return "dies";
    case Verdict::Kind::kUndecided: return "undecided";
    case Verdict::Kind::kUnknown: break;
  }
  return "unknown";
}

// A CPU kernel plugin's cases ran on TensorFlow's CPU with the plugin loaded, against a second
// process without it (cpu_kernel_plugin.h).
std::string CpuKernelPluginSummary(const json& kernels, int cells) {
  const int compared = kernels.value("compared", 0);
  const auto disagreeing = kernels.value("disagreements", json::array()).size();
  std::string text = "CPU kernel plugin (no device of its own): " + std::to_string(compared) +
                     " cases ran one of its CPU kernels (" + std::to_string(cells) +
                     " op/dtype cells), " + std::to_string(disagreeing) +
                     " disagree with TensorFlow's default CPU kernels (a process without the "
                     "plugin)";
  if (const int others = kernels.value("not_on_device", 0); others > 0) {
    text += "; " + std::to_string(others) +
            " ran TensorFlow's own kernel (no CPU kernel of the plugin for that op and dtype)";
  }
  return text;
}

}  // namespace

std::string InstalledSummary(const json& driver_result) {
  const Verdict verdict = FromDriver(driver_result);
  switch (verdict.kind) {
    case Verdict::Kind::kLoads: return "loads the plugin";
    case Verdict::Kind::kDies: return "dies: " + verdict.death;
    case Verdict::Kind::kUndecided:  // only the emulated side says it cannot know
    case Verdict::Kind::kUnknown: return "unknown: " + verdict.message;
    case Verdict::Kind::kRefuses: break;
  }
  return (Aborted(driver_result) ? "aborts: " : "refuses the plugin: ") + StatusText(verdict);
}

std::string InstalledKernelsSummary(const json& kernels) {
  const int compared = kernels.value("compared", 0);
  const json disagreements = kernels.value("disagreements", json::array());
  int cells = 0;
  const json all_cells = kernels.value("cells", json::object());
  for (const json& dtypes : all_cells) {
    for (const json& verdict : dtypes) {
      cells += verdict != "not_on_device" && verdict != "rejected_by_cpu";
    }
  }
  std::string text = "kernels: ";
  if (kernels.value("cpu_kernel_plugin", false))
    return text + CpuKernelPluginSummary(kernels, cells);
  if (disagreements.empty()) {
    text += std::to_string(compared) +
            " cases on the plugin's device agree with TensorFlow's CPU (" + std::to_string(cells) +
            " op/dtype cells)";
  } else {
    text += std::to_string(disagreements.size()) + " of " + std::to_string(compared) +
            " cases disagree with TensorFlow's CPU (";
    std::string last;
    for (const json& disagreement : disagreements) {
      const std::string cell = disagreement.value("op", "") + " " + disagreement.value("dtype", "");
      if (cell == last) continue;
      text += (last.empty() ? "" : ", ") + cell;
      last = cell;
    }
    text += ")";
  }
  if (const int skipped = kernels.value("not_on_device", 0); skipped > 0) {
    text += "; " + std::to_string(skipped) + " not on the plugin's device (no kernel registered)";
  }
  // Cells without a scenario, judged on cases generated from the op's definition.
  if (const json generated = kernels.value("generated", json::object()); !generated.empty()) {
    text += "; generated cases: " + std::to_string(generated.value("agree", 0)) +
            " op/dtype cells without a scenario agree";
    if (const int disagree = generated.value("disagree", 0); disagree > 0) {
      text += ", " + std::to_string(disagree) + " disagree";
    }
    if (const int skipped = generated.value("not_generated", 0); skipped > 0) {
      text += ", " + std::to_string(skipped) + " not generated (each result says why)";
    }
  }
  return text;
}

std::string InstalledModelsSummary(const json& models) {
  std::string text = "models as graphs: " + std::to_string(models.value("agree", 0)) + " of " +
                     std::to_string(models.value("models", 0)) +
                     " agree with TensorFlow's own kernels";
  if (const int disagree = models.value("disagree", 0); disagree > 0) {
    text += ", " + std::to_string(disagree) + " disagree";
  }
  const json rewritten = models.value("rewritten", json::object());
  if (rewritten.empty()) {
    text += "; no graph was rewritten into ops of the plugin";
  } else {
    text += "; graph rewritten: ";
    bool first = true;
    for (const auto& [op, count] : rewritten.items()) {
      text += (first ? "" : ", ") + std::to_string(count.get<int>()) + " nodes became " + op;
      first = false;
    }
    text += " (" + std::to_string(models.value("plugin_nodes_ran", 0)) +
            " nodes of the plugin's ops ran)";
  }
  if (const int not_run = models.value("not_run", 0); not_run > 0) {
    text += "; " + std::to_string(not_run) + " not run (each result says why)";
  }
  return text;
}

json InstalledTensorFlowReport(const json& driver_result, const std::string& tensorflow_dir,
                               const Verdict& emulated) {
  const Verdict installed = FromDriver(driver_result);
  const std::string release = driver_result.value("tensorflow_version", "unknown");
  json report = {{"release", release},
                 {"dir", tensorflow_dir},
                 {"summary", InstalledSummary(driver_result)},
                 {"verdict", KindName(installed.kind)}};
  if (installed.kind == Verdict::Kind::kRefuses) {
    if (installed.code) report["code"] = *installed.code;
    report["message"] = installed.message;
  }
  // Where the emulation cannot know (a plugin importing TensorFlow's C++ symbols), the installed
  // TensorFlow decides: that is no contradiction, and no agreement either.
  const bool agrees = Agree(installed, emulated);
  report["agrees"] = agrees;
  report["emulated"] = emulated.Describe();
  report["installed"] = installed.Describe();
  if (emulated.kind == Verdict::Kind::kUndecided) report["decided_here"] = true;
  // A driver that died said nothing about TensorFlow: nothing to contradict (its death is a
  // result of the run, session_deaths.h).
  const bool driver_died = driver_result.value("outcome", "") == kDriverDiedOutcome;
  if (!driver_died && Contradicts(installed, emulated)) {
    report["finding"] = "the suite's emulated verdict (" + emulated.Describe() +
                        ") contradicts TensorFlow " + release + " (installed) (" +
                        installed.Describe() +
                        "): a finding against plugin_conformance, not the plugin";
  }
  return report;
}

}  // namespace tensorflow_driver
