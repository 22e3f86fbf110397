// plugin_conformance PLUGIN [options]: see `plugin_conformance --help` and run_cli.h.
#include <csignal>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "catalogue/catalogue.h"
#include "cli/run_cli.h"
#include "installed_tensorflow/driver_process.h"
#include "conformance/suite.h"
#include "isolate/unit_runner.h"
#include "catalogue/generated_checks.h"
#include "kernels/installed_cases.h"
#include "kernels/declared_precision.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/plugin_op_listing.h"
#include "kernels/registered_kernels.h"
#include "ops/registry.h"
#include "kernels/tensorflow_cpu_oracle.h"
#include "models/installed_model_graphs.h"
#include "report/terminal_colour.h"
#include "validate/profile.h"

int main(int argc, char** argv) {
  using namespace conformance;
  // `plugin_conformance ... | head` closes stdout early; the report files must still be
  // written, so a write to the closed pipe is an error to ignore, not a reason to die.
  // Children inherit it, as plugins under Python (which ignores SIGPIPE) do.
  std::signal(SIGPIPE, SIG_IGN);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  std::vector<std::string> profiles;
  std::vector<MatrixGeneration> generations;
  for (const validate::Profile& profile : validate::AllProfiles()) {
    profiles.push_back(profile.name);
    generations.push_back({profile.name, profile.releases, profile.generation});
  }
  const CliEnvironment environment{
      .build_suite = [](const RunSettings& settings) { return BuildSuite(settings); },
      .run_units = RunUnits,
      // A family defined at run time gets its text before its judgement ran (--list -v).
      .lookup = [](std::string_view id) { return FindCheckOrFamily(id); },
      .env = ProcessEnvironment(),
      .out = &std::cout,
      .err = &std::cerr,
      .colour = ColourWantedFor(STDOUT_FILENO),
      .version = PLUGIN_CONFORMANCE_VERSION,
      .cpu_count = cpus > 0 ? static_cast<int>(cpus) : 1,
      .profiles = profiles,
      .generations = generations,
      .load_precision =
          [](const std::string& path, const std::vector<std::string>& scenario_dirs,
             const std::string& plugin) {
            // A declaration may name an op the plugin defines itself, when a scenario runs it.
            kernels::PluginOps plugin_ops([&plugin] {
              return kernels::ListPluginOps(plugin, kernels::kPluginOpsListingSeconds);
            });
            return kernels::LoadDeclaredPrecision(path, scenario_dirs,
                                                  plugin.empty() ? nullptr : &plugin_ops);
          },
      .run_installed_tensorflow =
          [](const InstalledTensorFlowRequest& request) {
            // The driver is installed (and built) beside this executable.
            const std::string driver =
                (std::filesystem::read_symlink("/proc/self/exe").parent_path() /
                 tensorflow_driver::kDriverExecutable)
                    .string();
            return tensorflow_driver::RunDriverProcess(
                {driver, request.tensorflow_dir, request.plugin, request.co_load,
                 request.kernel_cases, request.timeout_ms, request.model_graphs,
                 request.step_timeout_ms});
          },
      .installed_kernel_cases =
          [](const InstalledCaseRequest& request) {
            return kernels::InstalledTensorFlowCases(request.plugin, request.scenario_dirs,
                                                     request.precision, request.seed,
                                                     request.release);
          },
      .judge_installed_kernels =
          [](const nlohmann::json& cases, const nlohmann::json& ran) {
            kernels::CpuOracleJudgement judgement = kernels::JudgeAgainstTensorFlowCpu(cases, ran);
            AddRunTimeChecks(GeneratedCheckEntries(judgement.generated));
            std::vector<CheckResult> results = std::move(judgement.failures);
            for (CheckResult& result : judgement.generated) results.push_back(std::move(result));
            for (CheckResult& result : judgement.agreements) results.push_back(std::move(result));
            return std::pair{std::move(judgement.summary), std::move(results)};
          },
      .installed_model_graphs =
          [](const std::vector<std::string>& scenario_dirs, std::uint64_t seed) {
            return models::InstalledModelGraphsDump(scenario_dirs, seed);
          },
      .judge_installed_models =
          [](const nlohmann::json& model_graphs) {
            models::InstalledModelJudgement judgement =
                models::JudgeInstalledModelGraphs(model_graphs);
            AddRunTimeChecks(InstalledModelCheckEntries(judgement.results));
            return std::pair{std::move(judgement.summary), std::move(judgement.results)};
          },
      .list_registered_cells = [](const std::string& plugin, const std::string& profile)
          -> std::variant<std::vector<std::pair<std::string, std::string>>, std::string> {
        // Bringing the plugin up once, as a kernel unit does.
        constexpr unsigned kListingSeconds = 60;
        auto listed = kernels::ListRegisteredKernels(plugin, kListingSeconds);
        if (auto* why = std::get_if<std::string>(&listed)) return std::move(*why);
        const validate::Profile* emulated = validate::FindProfile(profile);
        return kernels::RegisteredCellNames(
            std::get<std::vector<kernels::RegisteredKernel>>(listed),
            emulated != nullptr ? ops::FindOpRegistry(emulated->op_registry) : nullptr);
      },
  };
  return RunCli(argc, argv, environment);
}
