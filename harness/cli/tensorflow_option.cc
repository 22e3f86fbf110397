#include "cli/tensorflow_option.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "installed_tensorflow/driver_process.h"
#include "installed_tensorflow/installed_release.h"
#include "installed_tensorflow/installed_verdict.h"
#include "installed_tensorflow/session_deaths.h"
#include "installed_tensorflow/verdicts.h"
#include "report/json_report.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

// The plugin's whole session in TensorFlow (load, first context, copies, ops) gets at least the
// driver's own default however short --timeout is, and more with the kernel cases (each runs
// twice, on the plugin's device and on TensorFlow's CPU) and the models. --timeout is the limit
// of each step in it (InstalledTensorFlowRequest::step_timeout_ms), so a hang costs that much.
constexpr std::int64_t kMinimumSessionMs = 30000;
constexpr std::int64_t kMinimumSessionWithKernelsMs = 180000;

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

// A dump goes to the driver as a file; removed when the run is over.
class CaseFile {
 public:
  explicit CaseFile(const nlohmann::json& cases, const std::string& kind = "cases")
      : path_(std::filesystem::temp_directory_path() /
              ("plugin_conformance_" + kind + "_" + std::to_string(getpid()) + ".json")) {
    std::ofstream(path_) << cases.dump();
  }
  ~CaseFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  CaseFile(const CaseFile&) = delete;
  CaseFile& operator=(const CaseFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

void CheckTensorFlowOption(const CliOptions& options, const CliEnvironment& environment) {
  if (options.tensorflow.empty()) return;
  if (!environment.run_installed_tensorflow) {
    throw UsageError("--tensorflow: not available in this build");
  }
  if (options.matrix || options.list) {
    throw UsageError(std::string("--tensorflow: not with ") +
                     (options.matrix ? "--matrix" : "--list") +
                     " (it confirms one run's verdict in the installed TensorFlow)");
  }
}

std::optional<InstalledTensorFlowRun> RunInInstalledTensorFlow(const CliOptions& options,
                                                               std::uint64_t seed,
                                                               const CliEnvironment& environment) {
  if (options.tensorflow.empty()) return std::nullopt;
  CheckTensorFlowOption(options, environment);
  InstalledTensorFlowRun run;
  run.dir = ResolveDir(options.tensorflow);
  const auto started = std::chrono::steady_clock::now();
  InstalledTensorFlowRequest request{run.dir,
                                     options.plugin,
                                     options.co_load.empty() ? "" : options.co_load.front(),
                                     "",
                                     std::max<std::int64_t>(options.timeout_ms, kMinimumSessionMs),
                                     "",
                                     options.timeout_ms};
  std::optional<CaseFile> case_file;
  std::string cases_release;  // the installed release, when the kernel cases asked for it
  if (environment.installed_kernel_cases && KernelsSelected(options)) {
    InstalledCaseRequest cases{options.plugin, options.scenario_dirs, {}, seed, ""};
    try {
      // The release first (its driver loads TensorFlow once more, without the plugin): the op
      // definitions the cases are generated from are that release's.
      cases.release =
          environment.run_installed_tensorflow({run.dir, "", "", "", request.timeout_ms, "", 0})
              .value("tensorflow_version", "");
    } catch (const std::runtime_error& error) {
      throw UsageError("--tensorflow " + run.dir +
                       ": TensorFlow could not be used: " + error.what());
    }
    if (!options.precision_path.empty() && environment.load_precision) {
      cases.precision =
          environment.load_precision(options.precision_path, options.scenario_dirs, options.plugin);
    }
    cases_release = cases.release;
    run.kernel_cases = environment.installed_kernel_cases(cases);
    case_file.emplace(run.kernel_cases);
    request.kernel_cases = case_file->path();
    request.timeout_ms = std::max(request.timeout_ms, kMinimumSessionWithKernelsMs);
  }
  std::optional<CaseFile> model_file;
  if (environment.installed_model_graphs && ModelsSelected(options)) {
    run.model_graphs = environment.installed_model_graphs(options.scenario_dirs, seed);
    model_file.emplace(run.model_graphs, "models");
    request.model_graphs = model_file->path();
    request.timeout_ms = std::max(request.timeout_ms, kMinimumSessionWithKernelsMs);
  }
  try {
    run.driver_result = environment.run_installed_tensorflow(request);
  } catch (const tensorflow_driver::DriverDied& died) {
    // Our driver's death is the TensorFlow leg's result (session_deaths.h), reported like any
    // other: the run goes on and writes its reports.
    run.driver_result = tensorflow_driver::DriverDiedResult(died, cases_release);
  } catch (const std::runtime_error& error) {
    throw UsageError("--tensorflow " + run.dir + ": TensorFlow could not be used: " + error.what());
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

std::string ProfileForInstalledRelease(const CliOptions& options,
                                       const InstalledTensorFlowRun& installed,
                                       const CliEnvironment& environment, std::ostream& err) {
  if (options.profile_given) return options.profile;
  const std::string release = installed.driver_result.value("tensorflow_version", "");
  if (release.empty()) return options.profile;  // the driver died before it said
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

void AttachInstalledTensorFlow(RunReport& report, const InstalledTensorFlowRun& installed,
                               const CliEnvironment& environment) {
  const tensorflow_driver::Verdict emulated =
      tensorflow_driver::FromConformance(RunReportToJson(report, environment.lookup));
  report.installed_tensorflow = tensorflow_driver::InstalledTensorFlowReport(
      installed.driver_result, installed.dir, emulated);
  nlohmann::json& attached = *report.installed_tensorflow;
  attached["seconds"] = installed.seconds;
  if (attached.contains("finding")) {
    report.warnings.push_back("finding against the suite: " +
                              attached.at("finding").get<std::string>());
  }
  // TensorFlow refusing the plugin, or its process dying, counts on its own: the installed
  // TensorFlow is the ground truth, whatever the emulated verdict said.
  for (CheckResult& result : tensorflow_driver::InstalledSessionResults(installed.driver_result)) {
    report.results.push_back(std::move(result));
  }
  if (!installed.kernel_cases.is_null() && environment.judge_installed_kernels &&
      installed.driver_result.contains("kernel_cases")) {
    auto [summary, failures] = environment.judge_installed_kernels(
        installed.kernel_cases, installed.driver_result.at("kernel_cases"));
    attached["kernels"] = std::move(summary);
    for (CheckResult& failure : failures) report.results.push_back(std::move(failure));
    attached["kernels"]["op_registry"] = installed.kernel_cases.value("op_registry", "");
  }
  if (!installed.model_graphs.is_null() && environment.judge_installed_models &&
      installed.driver_result.contains("model_graphs")) {
    auto [summary, results] =
        environment.judge_installed_models(installed.driver_result.at("model_graphs"));
    attached["models"] = std::move(summary);
    for (CheckResult& result : results) report.results.push_back(std::move(result));
  }
}

}  // namespace conformance
