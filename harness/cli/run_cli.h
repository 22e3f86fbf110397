#pragma once
// The whole of plugin_conformance behind main(): options → plan → run → reports → exit
// code. Everything that touches the outside world (the suite, the unit runner, the
// catalogue, the environment, the streams) comes in through CliEnvironment, so tests run
// the real command-line logic with fake units.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_options.h"
#include "model/declared_precision.h"
#include "model/test_unit.h"
#include "report/check_lookup.h"
#include "run/compatibility_matrix.h"
#include "run/run_conformance.h"
#include "run/sharding.h"

namespace conformance {

struct InstalledTensorFlowRequest {
  std::string tensorflow_dir;  // the installed package folder
  std::string plugin;
  std::string co_load;       // loaded first when set
  std::string kernel_cases;  // a case dump file to run (empty: none)
  std::int64_t timeout_ms{};
  std::string model_graphs;  // a model dump file to run as graphs (empty: none)
  // --timeout: the plugin's process there is killed when none of its steps (a copy, an op, a
  // kernel case, a model) ends for this long, so a hang costs one step's limit.
  std::int64_t step_timeout_ms{};
};

// The kernel cases --tensorflow hands to the installed TensorFlow (installed_kernel_cases).
struct InstalledCaseRequest {
  std::string plugin;
  std::vector<std::string> scenario_dirs;      // --scenarios: their kernel scenarios go too
  std::vector<DeclaredPrecision> precision{};  // --precision: widens generated cases' tolerance
  std::uint64_t seed{};
  // The installed release ("2.15.1"): generated cases follow its op definitions (empty: the
  // newest the suite embeds).
  std::string release{};
};

struct CliEnvironment {
  // The suite for these settings (BuildSuite in conformance/suite.h).
  std::function<std::vector<TestUnit>(const RunSettings&)> build_suite;
  UnitsRunner run_units;
  CheckLookup lookup;   // may be empty
  EnvLookup env;        // GTEST_* sharding variables
  std::ostream* out;    // console report
  std::ostream* err;    // errors and warnings
  bool colour = false;  // ANSI colour on `out`
  std::string version;  // tool version
  int cpu_count = 1;    // default --jobs
  // Names --profile accepts (validate/profile.h); empty: not checked (tests).
  std::vector<std::string> profiles;
  // The rows of --matrix, newest first (validate/profile.h); empty: --matrix is unavailable.
  std::vector<MatrixGeneration> generations{};
  // Reads a --precision file (kernels::LoadDeclaredPrecision; throws a UsageError); empty:
  // --precision is unavailable. `plugin`: the candidate, whose own ops its scenarios may run.
  std::function<std::vector<DeclaredPrecision>(const std::string& path,
                                               const std::vector<std::string>& scenario_dirs,
                                               const std::string& plugin)>
      load_precision{};
  // --tensorflow: loads the plugin (after the co-loaded one, if any) into the installed
  // TensorFlow, in a process of its own, runs the kernel cases of the file named (when not
  // empty) on its device and on TensorFlow's CPU, and returns the driver's JSON
  // (harness/installed_tensorflow/driver_process.h; throws tensorflow_driver::DriverDied when the
  // driver died, std::runtime_error when TensorFlow cannot be loaded from there); empty:
  // --tensorflow is unavailable.
  std::function<nlohmann::json(const InstalledTensorFlowRequest&)> run_installed_tensorflow{};
  // --tensorflow: the kernel cases for a request (the built-in and --scenarios scenarios', and
  // cases generated for the plugin's registered cells no scenario covers:
  // harness/kernels/installed_cases.h), and the judgement of what the installed TensorFlow
  // computed for them on the plugin's device against its own CPU kernels: a summary and the
  // results to add (a failure per disagreeing case, one result per generated cell;
  // harness/kernels/tensorflow_cpu_oracle.h). Empty: no kernel cases go to TensorFlow.
  std::function<nlohmann::json(const InstalledCaseRequest&)> installed_kernel_cases{};
  std::function<std::pair<nlohmann::json, std::vector<CheckResult>>(const nlohmann::json& cases,
                                                                    const nlohmann::json& ran)>
      judge_installed_kernels{};
  // --tensorflow: the models to run as graphs there (--scenarios models too;
  // harness/models/installed_model_graphs.h), and the judgement of the driver's
  // "model_graphs": a summary and one result per model. Empty: no models go to TensorFlow.
  std::function<nlohmann::json(const std::vector<std::string>& scenario_dirs, std::uint64_t seed)>
      installed_model_graphs{};
  std::function<std::pair<nlohmann::json, std::vector<CheckResult>>(const nlohmann::json&)>
      judge_installed_models{};
  // The (op, dtype) cells the plugin registers kernels for on its device, listed in a child
  // process (harness/kernels/registered_kernels.h; the op definitions of the profile's release
  // name each cell's dtype), or why they could not be listed; the report then says which no
  // check judged. Empty: not listed.
  std::function<std::variant<std::vector<std::pair<std::string, std::string>>, std::string>(
      const std::string& plugin, const std::string& profile)>
      list_registered_cells{};
};

// Returns the process exit code (run/exit_code.h).
int RunCli(int argc, const char* const* argv, const CliEnvironment& environment);

// Writes one report file when `path` is set; false (after saying why on the environment's err)
// when it could not be written, so the other reports are still attempted.
bool WriteReport(const std::optional<std::string>& path, const std::string& text,
                 const CliEnvironment& environment);

// Whether a report goes to standard output (`-`), so the console must go to stderr.
bool WritesToStandardOutput(const CliOptions& options);

}  // namespace conformance
