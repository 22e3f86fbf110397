#include "cli/tensorflow_option.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "installed_tensorflow/driver_process.h"
#include "installed_tensorflow/package_metadata.h"
#include "installed_tensorflow/installed_release.h"
#include "installed_tensorflow/installed_verdict.h"
#include "installed_tensorflow/session_deaths.h"
#include "installed_tensorflow/verdicts.h"
#include "report/json_report.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

std::string ResolveDir(const std::string& argument) {
  if (argument != "auto") {
    if (auto problem = tensorflow_driver::TensorFlowDirProblem(argument)) {
      throw UsageError("--tensorflow: " + *problem);
    }
    return argument;
  }
  const tensorflow_driver::FoundTensorFlow found = tensorflow_driver::FindInstalledTensorFlow();
  if (found.dir.empty()) {
    std::string message = "--tensorflow auto: no installed TensorFlow found; tried:";
    for (const std::string& attempt : found.tried) message += "\n  " + attempt;
    message += "\ngive the installed `tensorflow` package folder instead: --tensorflow DIR";
    throw UsageError(message);
  }
  return found.dir;
}

bool KernelsSelected(const CliOptions& options) {
  if (options.tiers.empty()) return true;
  return std::any_of(options.tiers.begin(), options.tiers.end(), [](const std::string& tier) {
    return tier.find("kernels") != std::string::npos || tier.find("all") != std::string::npos;
  });
}

bool ModelsSelected(const CliOptions& options) {
  if (options.tiers.empty()) return true;
  return std::any_of(options.tiers.begin(), options.tiers.end(), [](const std::string& tier) {
    return tier.find("models") != std::string::npos || tier.find("all") != std::string::npos;
  });
}

// The installed release from the package's pip metadata, so nothing of TensorFlow runs before
// the run is planned; only a folder without that metadata makes the driver load TensorFlow
// (once, without the plugin) to say it.
std::string InstalledRelease(const std::string& dir, std::int64_t timeout_ms,
                             const CliEnvironment& environment) {
  if (auto release = tensorflow_driver::ReleaseFromPackageMetadata(dir)) return *release;
  try {
    return environment.run_installed_tensorflow({dir, "", "", "", timeout_ms, "", 0})
        .value("tensorflow_version", "");
  } catch (const std::runtime_error& error) {
    throw UsageError("--tensorflow " + dir + ": TensorFlow could not be used: " + error.what());
  }
}

// "the emulated tiers judged profile tf2.10 (TensorFlow 2.10-2.15), the installed TensorFlow
// 2.21.0 judged itself" when `profile` does not stand for `release`; nullopt when it does, or when
// that cannot be told (no profiles known, no release said).
std::optional<std::string> DifferentReleases(const std::string& profile, const std::string& release,
                                             const CliEnvironment& environment) {
  if (environment.generations.empty() || release.empty() || release == "unknown") return {};
  std::vector<std::pair<std::string, std::string>> profiles;
  std::string releases_of_profile;
  for (const MatrixGeneration& generation : environment.generations) {
    profiles.emplace_back(generation.profile, generation.releases);
    if (generation.profile == profile) releases_of_profile = generation.releases;
  }
  if (tensorflow_driver::ProfileForRelease(release, profiles) == profile) return {};
  return "the emulated tiers judged profile " + profile +
         (releases_of_profile.empty() ? "" : " (TensorFlow " + releases_of_profile + ")") +
         ", the installed TensorFlow " + release +
         " judged itself: the two legs judge different releases, so their verdicts are not "
         "compared (each counts for its own release)";
}

// Where the installed TensorFlow refused the plugin as the emulation said it would, its
// load.in_tensorflow failure is the same defect as the check the emulated verdict came from:
// blamed on that check's call and problem (and kernel), it joins that root cause, and a waiver of
// it, instead of standing as a second one. A check without a call to blame stays apart.
void JoinEmulatedRootCause(RunReport& report) {
  if (!report.tensorflow_verdict || !report.tensorflow_verdict->contains("check")) return;
  const std::string check = report.tensorflow_verdict->at("check").get<std::string>();
  const auto by_id = [&](const std::string& id) {
    return std::find_if(report.results.begin(), report.results.end(),
                        [&](const CheckResult& result) { return result.id == id; });
  };
  const auto emulated = by_id(check);
  const auto installed = by_id(tensorflow_driver::kLoadInTensorFlowCheckId);
  if (emulated == report.results.end() || installed == report.results.end()) return;
  if (installed->outcome != Outcome::kFail || installed->details.contains("failing_call")) return;
  for (const char* key : {"failing_call", "problem", "kernel"}) {
    if (const auto found = emulated->details.find(key); found != emulated->details.end())
      installed->details[key] = found->second;
  }
  if (!installed->details.contains("problem")) installed->details.erase("failing_call");
}

}  // namespace

void CheckTensorFlowOption(const CliOptions& options, const CliEnvironment& environment) {
  if (options.tensorflow.empty()) return;
  if (!environment.run_installed_tensorflow) {
    throw UsageError("--tensorflow: not available in this build");
  }
  if (options.matrix) {
    throw UsageError(
        "--tensorflow: not with --matrix (it confirms one run's verdict in the installed "
        "TensorFlow)");
  }
}

std::optional<InstalledTensorFlowPlan> PlanInstalledTensorFlow(const CliOptions& options,
                                                               std::uint64_t seed,
                                                               const CliEnvironment& environment) {
  if (options.tensorflow.empty()) return std::nullopt;
  CheckTensorFlowOption(options, environment);
  InstalledTensorFlowPlan plan;
  plan.dir = ResolveDir(options.tensorflow);
  constexpr std::int64_t kReleaseProbeMs = 30000;
  plan.release = InstalledRelease(
      plan.dir, std::max<std::int64_t>(options.timeout_ms, kReleaseProbeMs), environment);
  if (environment.installed_kernel_cases && KernelsSelected(options)) {
    // The op definitions the cases are generated from are the installed release's.
    InstalledCaseRequest cases{options.plugin, options.scenario_dirs, {}, seed, plan.release};
    if (!options.precision_path.empty() && environment.load_precision) {
      cases.precision =
          environment.load_precision(options.precision_path, options.scenario_dirs, options.plugin);
    }
    plan.kernel_cases = environment.installed_kernel_cases(cases);
  }
  if (environment.installed_model_graphs && ModelsSelected(options)) {
    plan.model_graphs = environment.installed_model_graphs(options.scenario_dirs, seed);
  }
  return plan;
}

std::string ProfileForInstalledRelease(const CliOptions& options, const std::string& release,
                                       const CliEnvironment& environment, std::ostream& err) {
  if (options.profile_given) return options.profile;
  if (release.empty()) return options.profile;  // the driver could not say
  std::vector<std::pair<std::string, std::string>> profiles;
  for (const MatrixGeneration& generation : environment.generations) {
    profiles.emplace_back(generation.profile, generation.releases);
  }
  if (auto profile = tensorflow_driver::ProfileForRelease(release, profiles)) {
    err << "plugin_conformance: TensorFlow " << release << " (installed) is emulated by profile "
        << *profile << '\n';
    return *profile;
  }
  if (!profiles.empty()) {
    err << "plugin_conformance: warning: no profile stands for TensorFlow " << release
        << " (installed); emulating " << options.profile << '\n';
  }
  return options.profile;
}

void AttachInstalledTensorFlow(RunReport& report, const InstalledTensorFlowLeg& leg,
                               const CliEnvironment& environment) {
  const std::optional<InstalledTensorFlowSession>& session = leg.session();
  if (!session) return;  // none of this run's units went to TensorFlow (a shard without any)
  const tensorflow_driver::Verdict emulated =
      tensorflow_driver::FromConformance(RunReportToJson(report, environment.lookup));
  report.installed_tensorflow = tensorflow_driver::InstalledTensorFlowReport(
      session->driver_result, leg.plan().dir, emulated);
  nlohmann::json& attached = *report.installed_tensorflow;
  attached["seconds"] = session->seconds;
  attached["step_limit_ms"] = session->step_limit_ms;
  attached["session_limit_ms"] = session->session_limit_ms;
  if (auto differs =
          DifferentReleases(report.profile, attached.value("release", ""), environment)) {
    // The emulated tiers judged the profile's releases, the installed TensorFlow judged itself:
    // two verdicts on two releases contradict nothing (issue 29, item 15).
    attached.erase("finding");
    attached["different_releases"] = *differs;
  }
  if (attached.contains("finding")) {
    report.warnings.push_back("finding against the suite: " +
                              attached.at("finding").get<std::string>());
  } else if (attached.value("agrees", false)) {
    JoinEmulatedRootCause(report);
  }
  const bool failure_reported =
      std::any_of(report.results.begin(), report.results.end(),
                  [&](const CheckResult& result) { return result.id == session->failure_id; });
  if (!session->failure.empty() && !failure_reported) {
    // The session's unit ran only for the units selected here: what it found still decides.
    attached["session_failure"] = session->failure;
  }
  if (!session->kernels.is_null()) {
    attached["kernels"] = session->kernels;
    attached["kernels"]["op_registry"] = session->op_registry;
  }
  if (!session->models.is_null()) attached["models"] = session->models;
}

}  // namespace conformance
