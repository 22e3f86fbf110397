#include "run/run_report.h"

#include <sys/utsname.h>

#include <algorithm>
#include <ctime>

#include "model/no_device.h"

namespace conformance {

HostInfo CurrentHost() {
  utsname name{};
  if (uname(&name) != 0) return {};
  return HostInfo{name.sysname, name.nodename, name.release, name.version, name.machine};
}

std::map<Outcome, int> RunReport::Counts() const {
  std::map<Outcome, int> counts;
  for (Outcome outcome : kAllOutcomes) counts[outcome] = 0;
  for (const CheckResult& result : results) ++counts[result.outcome];
  return counts;
}

bool RunReport::JudgedInInstalledTensorFlowOnly() const {
  return installed_tensorflow && installed_tensorflow->value("decided_here", false);
}

bool RunReport::PluginLoaded() const {
  if (JudgedInInstalledTensorFlowOnly()) {
    return installed_tensorflow->value("verdict", "") == "loads";
  }
  if (!load_failure.empty()) return false;
  for (const CheckResult& result : results) {
    if (KeepsPluginFromLoading(result)) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> RunReport::TiersWithoutPass() const {
  std::vector<std::string> missing;
  for (const std::string& tier : tiers) {
    bool ran = false;
    bool passed = false;
    bool only_not_supported = true;
    for (const CheckResult& result : results) {
      if (result.tier != tier) continue;
      ran = true;
      passed = passed || result.outcome == Outcome::kPass;
      only_not_supported = only_not_supported && result.outcome == Outcome::kNotSupported;
    }
    if (!no_device.empty() && IsDeviceTier(tier)) continue;  // DeviceTiersNotRun() says it
    const bool named = std::find(named_tiers.begin(), named_tiers.end(), tier) != named_tiers.end();
    if (ran && only_not_supported && !named) continue;  // a module the plugin does not provide
    // Unsharded, a selected tier always has results; without any it checked nothing.
    if (!passed && (ran || !shard)) missing.push_back(tier);
  }
  return missing;
}

bool RunReport::Conformant() const { return NotConformantReason().empty(); }

std::string RunReport::NotConformantReason() const {
  if (!PluginLoaded()) return "the plugin could not be loaded";
  int breaking = 0, flaky = 0;
  for (const CheckResult& result : results) {
    if (result.outcome == Outcome::kFlaky) {
      ++flaky;
    } else if (BreaksConformance(result.outcome)) {
      ++breaking;
    }
  }
  const auto checks = [](int n) { return std::to_string(n) + (n == 1 ? " check" : " checks"); };
  if (breaking > 0 || flaky > 0) {
    std::string text;
    if (breaking > 0)
      text = checks(breaking) + " failed, crashed, timed out or passed although waived";
    if (flaky > 0) {
      text += (text.empty() ? "" : "; ") + checks(flaky) +
              " flaky (outcomes varied over --repeat; not waived as flaky)";
    }
    return text;
  }
  // The installed TensorFlow refused the plugin or its process died in the session, found by
  // the session's unit run unreported (a shard or --filter without it): the ground truth still.
  if (installed_tensorflow && installed_tensorflow->contains("session_failure")) {
    return "inside the installed TensorFlow (not among the selected checks): " +
           installed_tensorflow->value("session_failure", "");
  }
  // The emulated tiers cannot run such a plugin: what was verified is its load and its kernel
  // cases inside the installed TensorFlow. Kernel cases that all ran TensorFlow's own kernels
  // verified nothing of the plugin, so a selected kernels tier is no pass (no vacuous pass).
  if (JudgedInInstalledTensorFlowOnly()) return InstalledKernelsVerifiedNothing();
  if (results.empty() && !shard) return "no check ran";
  const auto tier_list = [](const std::vector<std::string>& tiers) {
    std::string text = tiers.size() == 1 ? "tier " : "tiers ";
    for (std::size_t i = 0; i < tiers.size(); ++i) text += (i == 0 ? "" : ", ") + tiers[i];
    return text;
  };
  if (const std::vector<std::string> device_tiers = DeviceTiersNotRun(); !device_tiers.empty()) {
    return "the plugin reported 0 devices: " + tier_list(device_tiers) +
           " did not run (no device to drive); on a machine without the device, select the "
           "device-free tiers only (--tier " +
           std::string(kDeviceFreeTiers) + ")";
  }
  const std::vector<std::string> idle = TiersWithoutPass();
  if (!idle.empty()) {
    std::string text = "no check passed in tier";
    text += idle.size() == 1 ? " " : "s ";
    for (std::size_t i = 0; i < idle.size(); ++i) text += (i == 0 ? "" : ", ") + idle[i];
    return text + " (nothing was verified there)";
  }
  return "";
}

std::vector<std::string> RunReport::DeviceTiersNotRun() const {
  std::vector<std::string> not_run;
  if (no_device.empty()) return not_run;
  for (const std::string& tier : tiers) {
    if (IsDeviceTier(tier)) not_run.push_back(tier);
  }
  return not_run;
}

bool RunReport::WantsOnlyADevice() const {
  if (!PluginLoaded() || JudgedInInstalledTensorFlowOnly() || DeviceTiersNotRun().empty())
    return false;
  for (const CheckResult& result : results) {
    if (result.outcome == Outcome::kFlaky || BreaksConformance(result.outcome)) return false;
  }
  return TiersWithoutPass().empty();
}

std::string RunReport::InstalledKernelsVerifiedNothing() const {
  if (std::find(tiers.begin(), tiers.end(), "kernels") == tiers.end()) return "";
  const nlohmann::json kernels = installed_tensorflow->value("kernels", nlohmann::json::object());
  if (kernels.value("compared", 0) > 0) return "";
  // A CPU kernel plugin's kernels are for its own ops, reached only through its graph optimizer:
  // model graphs in which nodes of those ops ran verified them.
  const nlohmann::json models = installed_tensorflow->value("models", nlohmann::json::object());
  if (models.value("plugin_nodes_ran", 0) > 0) return "";
  return "no kernel case ran one of the plugin's kernels in the installed TensorFlow (nothing was "
         "verified in tier kernels)" +
         std::string(models.empty() ? ""
                                    : "; no model graph was rewritten into ops of the plugin "
                                      "whose kernels ran");
}

std::string IsoUtc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace conformance
