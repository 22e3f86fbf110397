#include "cli/installed_tensorflow_units.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "cli/installed_plugin_folder.h"
#include "installed_tensorflow/driver_process.h"
#include "installed_tensorflow/session_deaths.h"
#include "kernels/in_tensorflow_id.h"
#include "models/installed_model_graphs.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

using nlohmann::json;

// --timeout is the limit of each step of the plugin's session in TensorFlow (a copy, an op, a
// kernel case on the plugin's device and TensorFlow's CPU, a model): a step that ends later is a
// hang of what it ran (InstalledTensorFlowRequest::step_timeout_ms). The session as a whole gets
// that limit for every step it has, plus the driver's own default: a slow but correct plugin (a
// kernel that compiles per shape) never runs out of it, and an overrun that happens anyway is the
// session's, never blamed on the case that happened to run (session_deaths.h).
constexpr std::int64_t kMinimumSessionMs = 30000;
// The session's own steps: load, devices, 15 dtypes copied, 4 first ops, its end.
constexpr std::int64_t kSessionOwnSteps = 22;

constexpr const char* kSessionUnit = "load.in_tensorflow";

// The check a case of the dump is judged under.
std::string CheckIdOf(const json& kernel_case) {
  const std::string id = kernel_case.value("id", "");
  return kernel_case.value("generated", false) ? id : kernels::InTensorFlowCheckId(id);
}

std::string ModelCheckIdOf(const json& model) {
  return "model." + model.value("model", "") + "." + model.value("dtype", "") +
         models::kInstalledModelSuffix;
}

// A dump goes to the driver as a file; removed when the session is over.
class DumpFile {
 public:
  DumpFile(const json& dump, const std::string& kind)
      : path_(std::filesystem::temp_directory_path() /
              ("plugin_conformance_" + kind + "_" + std::to_string(getpid()) + ".json")) {
    std::ofstream(path_) << dump.dump();
  }
  ~DumpFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  DumpFile(const DumpFile&) = delete;
  DumpFile& operator=(const DumpFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// The dump with only the cases (and not-generated cells) whose checks are in `wanted`.
json KernelCasesFor(const json& dump, const std::set<std::string>& wanted) {
  json narrowed = dump;
  narrowed["cases"] = json::array();
  for (const json& kernel_case : dump.value("cases", json::array())) {
    if (wanted.contains(CheckIdOf(kernel_case))) narrowed["cases"].push_back(kernel_case);
  }
  narrowed["not_generated"] = json::array();
  for (const json& cell : dump.value("not_generated", json::array())) {
    if (wanted.contains(cell.value("id", ""))) narrowed["not_generated"].push_back(cell);
  }
  return narrowed;
}

json ModelGraphsFor(const json& dump, const std::set<std::string>& wanted) {
  json narrowed = dump;
  narrowed["models"] = json::array();
  for (const json& model : dump.value("models", json::array())) {
    if (wanted.contains(ModelCheckIdOf(model))) narrowed["models"].push_back(model);
  }
  return narrowed;
}

// Why a check of the session got no result.
std::string NotReachedReason(const json& driver_result) {
  const std::string session = std::string(tensorflow_driver::kSessionInTensorFlowCheckId);
  if (driver_result.value("outcome", "") != "loaded" || driver_result.contains("devices_fatal")) {
    return "not run: the installed TensorFlow did not load the plugin (" +
           std::string(tensorflow_driver::kLoadInTensorFlowCheckId) + ")";
  }
  if (driver_result.contains("died")) {
    const json in_flight = driver_result["died"].value("in_flight", json::object());
    const std::string step = in_flight.value("step", "");
    const std::string where = step == "kernel_case" ? " in kernel case " + in_flight.value("id", "")
                              : step == "model_graph" ? " in model " + in_flight.value("model", "")
                                                      : " (" + session + ")";
    return "not run: the plugin's process inside the installed TensorFlow died before it" + where;
  }
  return "not run: the installed TensorFlow reported no result for it";
}

}  // namespace

std::vector<TestUnit> InstalledTensorFlowUnits(const InstalledTensorFlowPlan& plan) {
  std::vector<TestUnit> units;
  units.push_back(TestUnit{.name = kSessionUnit,
                           .tier = "load",
                           .check_ids = {tensorflow_driver::kLoadInTensorFlowCheckId,
                                         tensorflow_driver::kSessionInTensorFlowCheckId,
                                         tensorflow_driver::kCopyInTensorFlowCheckId,
                                         tensorflow_driver::kFloatOpsInTensorFlowCheckId},
                           .run = {},
                           .prerequisites = {},
                           .in_installed_tensorflow = true});
  // One unit per op, in the order the dump first names it (the kernel tier's is one per op too).
  std::map<std::string, std::size_t> unit_of_op;
  const auto add_to_op = [&](const std::string& op, const std::string& id) {
    auto [it, added] = unit_of_op.try_emplace(op, units.size());
    if (added) {
      units.push_back(TestUnit{.name = "kernel." + op + ".in_tensorflow",
                               .tier = "kernels",
                               .check_ids = {},
                               .run = {},
                               .prerequisites = {},
                               .in_installed_tensorflow = true});
    }
    std::vector<std::string>& ids = units[it->second].check_ids;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  if (!plan.kernel_cases.is_null()) {
    for (const json& kernel_case : plan.kernel_cases.value("cases", json::array())) {
      add_to_op(kernel_case.value("op", ""), CheckIdOf(kernel_case));
    }
    for (const json& cell : plan.kernel_cases.value("not_generated", json::array())) {
      add_to_op(cell.value("op", ""), cell.value("id", ""));
    }
  }
  if (!plan.model_graphs.is_null()) {
    std::set<std::string> seen;
    for (const json& model : plan.model_graphs.value("models", json::array())) {
      const std::string id = ModelCheckIdOf(model);
      if (!seen.insert(id).second) continue;
      units.push_back(TestUnit{.name = id,
                               .tier = "models",
                               .check_ids = {id},
                               .run = {},
                               .prerequisites = {},
                               .in_installed_tensorflow = true});
    }
  }
  return units;
}

InstalledTensorFlowLeg::InstalledTensorFlowLeg(InstalledTensorFlowPlan plan,
                                               const CliOptions& options,
                                               const CliEnvironment& environment)
    : plan_(std::move(plan)), options_(options), environment_(environment) {}

std::vector<std::vector<CheckResult>> InstalledTensorFlowLeg::Run(
    const std::vector<TestUnit>& units) {
  std::set<std::string> wanted;
  std::map<std::string, std::size_t> unit_of_check;
  for (std::size_t i = 0; i < units.size(); ++i) {
    for (const std::string& id : units[i].check_ids) {
      wanted.insert(id);
      unit_of_check.emplace(id, i);
    }
  }
  // As pip installs it, when it is laid out for that (installed_plugin_folder.h).
  const InstalledPluginFolder installed(options_.plugin, plan_.dir);
  InstalledTensorFlowRequest request{plan_.dir,
                                     installed.path(),
                                     options_.co_load.empty() ? "" : options_.co_load.front(),
                                     "",
                                     0,
                                     "",
                                     options_.timeout_ms};
  std::int64_t steps = kSessionOwnSteps;
  json kernel_cases;
  std::optional<DumpFile> case_file;
  if (!plan_.kernel_cases.is_null()) {
    kernel_cases = KernelCasesFor(plan_.kernel_cases, wanted);
    if (!kernel_cases["cases"].empty() || !kernel_cases["not_generated"].empty()) {
      case_file.emplace(kernel_cases, "cases");
      request.kernel_cases = case_file->path();
      steps += static_cast<std::int64_t>(kernel_cases["cases"].size());
    } else {
      kernel_cases = nullptr;
    }
  }
  json model_graphs;
  std::optional<DumpFile> model_file;
  if (!plan_.model_graphs.is_null()) {
    model_graphs = ModelGraphsFor(plan_.model_graphs, wanted);
    if (!model_graphs["models"].empty()) {
      model_file.emplace(model_graphs, "models");
      request.model_graphs = model_file->path();
      steps += static_cast<std::int64_t>(model_graphs["models"].size());
    } else {
      model_graphs = nullptr;
    }
  }
  request.timeout_ms = kMinimumSessionMs + steps * options_.timeout_ms;
  InstalledTensorFlowSession session;
  session.step_limit_ms = options_.timeout_ms;
  session.session_limit_ms = request.timeout_ms;
  const auto started = std::chrono::steady_clock::now();
  try {
    session.driver_result = installed.AsGiven(environment_.run_installed_tensorflow(request));
  } catch (const tensorflow_driver::DriverDied& died) {
    // Our driver's death is the TensorFlow leg's result (session_deaths.h), reported like any
    // other: the run goes on and writes its reports.
    session.driver_result = tensorflow_driver::DriverDiedResult(died, plan_.release);
  } catch (const std::runtime_error& error) {
    throw UsageError("--tensorflow " + plan_.dir +
                     ": TensorFlow could not be used: " + error.what());
  }
  session.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::vector<CheckResult> results =
      tensorflow_driver::InstalledSessionChecks(session.driver_result);
  for (const CheckResult& result : results) {
    if (session.failure.empty() && BreaksConformance(result.outcome)) {
      session.failure_id = result.id;
      session.failure = result.id + ": " + result.message;
    }
  }
  if (!kernel_cases.is_null() && environment_.judge_installed_kernels &&
      session.driver_result.contains("kernel_cases")) {
    auto [summary, judged] = environment_.judge_installed_kernels(
        kernel_cases, session.driver_result.at("kernel_cases"));
    session.kernels = std::move(summary);
    session.op_registry = kernel_cases.value("op_registry", "");
    for (CheckResult& result : judged) results.push_back(std::move(result));
  }
  if (!model_graphs.is_null() && environment_.judge_installed_models &&
      session.driver_result.contains("model_graphs")) {
    auto [summary, judged] =
        environment_.judge_installed_models(session.driver_result.at("model_graphs"));
    session.models = std::move(summary);
    for (CheckResult& result : judged) results.push_back(std::move(result));
  }

  std::vector<std::vector<CheckResult>> per_unit(units.size());
  std::set<std::string> reported;
  for (CheckResult& result : results) {
    const auto found = unit_of_check.find(result.id);
    // An id no unit declares goes to the first unit, whose filing names it (a stray failure is
    // kept under a declared check, anything else dropped with a warning).
    const std::size_t unit = found == unit_of_check.end() ? 0 : found->second;
    reported.insert(result.id);
    per_unit[unit].push_back(std::move(result));
  }
  const std::string not_reached = NotReachedReason(session.driver_result);
  for (std::size_t i = 0; i < units.size(); ++i) {
    for (const std::string& id : units[i].check_ids) {
      if (reported.contains(id)) continue;
      CheckResult skipped;
      skipped.id = id;
      skipped.outcome = Outcome::kSkipped;
      skipped.message = not_reached;
      per_unit[i].push_back(std::move(skipped));
    }
  }
  session_ = std::move(session);
  return per_unit;
}

UnitsRunner WithInstalledTensorFlow(UnitsRunner emulated, InstalledTensorFlowLeg& leg) {
  return [emulated = std::move(emulated), &leg](
             const std::vector<TestUnit>& units, const RunSettings& settings,
             const IsolationOptions& options, int jobs, const UnitDone& on_done) {
    std::vector<TestUnit> own, installed;
    std::vector<std::size_t> own_index, installed_index;
    for (std::size_t i = 0; i < units.size(); ++i) {
      (units[i].in_installed_tensorflow ? installed : own).push_back(units[i]);
      (units[i].in_installed_tensorflow ? installed_index : own_index).push_back(i);
    }
    if (!own.empty()) {
      emulated(
          own, settings, options, jobs, [&](std::size_t index, std::vector<CheckResult> results) {
            on_done(index < own_index.size() ? own_index[index] : units.size(), std::move(results));
          });
    }
    if (installed.empty()) return;
    std::vector<std::vector<CheckResult>> results = leg.Run(installed);
    for (std::size_t i = 0; i < installed.size(); ++i) {
      on_done(installed_index[i], std::move(results[i]));
    }
  };
}

}  // namespace conformance
