#include "installed_tensorflow/driver_main.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/child_process.h"
#include "installed_tensorflow/cpu_kernel_plugin.h"
#include "installed_tensorflow/driver_outcome.h"
#include "installed_tensorflow/driver_steps.h"
#include "installed_tensorflow/model_graphs.h"
#include "installed_tensorflow/plugin_session.h"
#include "installed_tensorflow/session_deaths.h"
#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

struct Options {
  std::string tensorflow_dir;
  int timeout_ms = 30000;
  int step_timeout_ms = 0;  // 0: no per-step limit, only timeout_ms for the whole session
  bool batch = false;
  bool version = false;  // --version: only TensorFlow's TF_Version(), no plugin
  PluginRequest single;
};

constexpr const char* kUsage =
    "usage: tf_driver --tensorflow DIR [--timeout-ms N] "
    "(--version | --batch < requests.jsonl | [--step-timeout-ms N] [--co-load OTHER.so]\n"
    "                          [--kernel-cases FILE] [--model-graphs FILE] PLUGIN.so)\n"
    "Loads each plugin into the installed TensorFlow at DIR (its tensorflow package folder), in a\n"
    "child process of its own, and prints what TensorFlow did as JSON\n"
    "(harness/installed_tensorflow/README.md).\n";

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "tf_driver: " << problem << '\n' << kUsage;
  std::exit(2);
}

Options Parse(int argc, char** argv, int first_argument) {
  Options options;
  for (int i = first_argument; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--tensorflow") {
      options.tensorflow_dir = value();
    } else if (arg == "--timeout-ms") {
      options.timeout_ms = std::stoi(value());
    } else if (arg == "--step-timeout-ms") {
      options.step_timeout_ms = std::stoi(value());
    } else if (arg == "--co-load") {
      options.single.co_load = value();
    } else if (arg == "--kernel-cases") {
      options.single.kernel_cases_path = value();
    } else if (arg == "--model-graphs") {
      options.single.model_graphs_path = value();
    } else if (arg == "--version") {
      options.version = true;
    } else if (arg == "--batch") {
      options.batch = true;
    } else if (arg.starts_with("--") || !options.single.path.empty()) {
      Usage("unexpected argument " + arg);
    } else {
      options.single.path = arg;
    }
  }
  if (options.tensorflow_dir.empty()) Usage("--tensorflow is required");
  if (!options.version && options.batch == !options.single.path.empty()) {
    Usage("give either --batch or one plugin");
  }
  return options;
}

// A plugin's imports of the core library resolve as in Python's TensorFlow, which sets no
// LD_LIBRARY_PATH into the wheel: against the libraries already loaded (by SONAME, or by the
// name they were opened by), else through the plugin's own RPATH/RUNPATH. So a plugin whose
// DT_NEEDED `_pywrap_tensorflow_internal.so` cannot be matched (2.19 to 2.21: that library has no
// SONAME) is refused here as there (NOT_FOUND, measured on 2.21.0 in Python and here). The
// driver re-executes itself once to quiet TensorFlow's INFO and WARNING logging (FATAL and ERROR
// lines stay), unless the caller chose.
void PrepareEnvironment(const Options& /*options*/, char** argv) {
  if (std::getenv("TF_DRIVER_ENVIRONMENT_SET") != nullptr) return;
  setenv("TF_CPP_MIN_LOG_LEVEL", "2", 0);
  setenv("TF_DRIVER_ENVIRONMENT_SET", "1", 1);
  execv("/proc/self/exe", argv);
  std::perror("tf_driver: re-executing itself");
  std::exit(2);
}

// The models' graphs again in a child that never loads the plugin (TensorFlow's own CPU
// kernels and optimizer), then both runs compared: result["model_graphs"].
void JudgeModelGraphsAgainstCpu(const TensorFlowCApi& api, const PluginRequest& request,
                                const ChildResult& child, json& result, int timeout_ms) {
  json plugin = ModelGraphResults(child.report, kModelGraphStep);
  // The plugin's process died before its first model (driver_outcome.h's `died` says where):
  // there is nothing of the plugin to judge.
  if (plugin.empty()) return;
  // It died in a model: how, so that its judge tells a hang (a timeout within --timeout) from a
  // crash, and a session that ran out of its allowance from either.
  if (plugin.back().value("died", false) && result.contains("died")) {
    const json& died = result["died"];
    plugin.back()["death"] = {{"how", HowItDied(died)},
                              {"timed_out", died.value("timed_out", false)},
                              {"stalled", died.value("stalled", false)},
                              {"signal", died.value("signal", 0)}};
  }
  const json plugin_ops = PluginGraphOps(plugin);
  const ChildResult baseline = RunInChild(
      [&](std::FILE* report) {
        RunModelGraphs(api, request.model_graphs_path, kCpuDevice, kBaselineModelGraphStep, report);
        json counts = json::object();
        for (const json& op : plugin_ops) counts[op.get<std::string>()] = KernelCount(api, op);
        Emit(report, {{"step", "baseline_kernel_counts"}, {"counts", counts}});
      },
      timeout_ms);
  json counts = json::object();
  std::istringstream lines(baseline.report);
  for (std::string line; std::getline(lines, line);) {
    const json step = json::parse(line, nullptr, false);
    if (!step.is_discarded() && step.value("step", "") == "baseline_kernel_counts") {
      counts = step["counts"];
    }
  }
  std::ifstream in(request.model_graphs_path);
  const json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded()) return;
  result["model_graphs"] = JudgeModelGraphs(
      dump, plugin, ModelGraphResults(baseline.report, kBaselineModelGraphStep), counts);
}

json Drive(const TensorFlowCApi& api, const PluginRequest& request, int timeout_ms,
           int step_timeout_ms) {
  const ChildResult child =
      RunInChild([&](std::FILE* report) { RunPluginSession(api, request, report); }, timeout_ms,
                 step_timeout_ms);
  json result = Outcome(request, child);
  if (RanAsCpuKernelPlugin(result)) {
    // The oracle of a CPU kernel plugin: TensorFlow's default CPU kernels, in a process that
    // never loaded the plugin.
    const ChildResult baseline = RunInChild(
        [&](std::FILE* report) { RunCpuBaselineSession(api, request, report); }, timeout_ms);
    const bool died = baseline.signal != 0 || baseline.timed_out || baseline.exit_code != 0;
    MergeCpuBaseline(result, baseline.report,
                     died ? "the process without the plugin died: " + baseline.output : "");
  }
  if (!request.model_graphs_path.empty() && result.value("outcome", "") == "loaded") {
    JudgeModelGraphsAgainstCpu(api, request, child, result, timeout_ms);
  }
  return result;
}

// One request per input line: {"name": ..., "path": ..., "co_load": ..., "env": {...}}; the
// environment is set in the plugin's child only (the mock plugin reads its fault from there).
int RunBatch(const TensorFlowCApi& api, const Options& options) {
  // All of stdin first: a child that calls exit() (a plugin may) rewinds the shared file offset
  // to its copy of the stream buffer.
  std::vector<std::string> lines;
  for (std::string line; std::getline(std::cin, line);) lines.push_back(line);
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    const json request = json::parse(line);
    const PluginRequest plugin{request.at("path"), request.value("co_load", ""), "", ""};
    const json env = request.value("env", json::object());
    const ChildResult child = RunInChild(
        [&](std::FILE* report) {
          for (const auto& [name, value] : env.items()) {
            setenv(name.c_str(), value.get<std::string>().c_str(), 1);
          }
          RunPluginSession(api, plugin, report);
        },
        options.timeout_ms);
    json result = Outcome(plugin, child);
    result["name"] = request.value("name", plugin.path);
    std::cout << result.dump() << std::endl;
  }
  return 0;
}

}  // namespace

int RunDriver(int argc, char** argv, int first_argument) {
  const Options options = Parse(argc, argv, first_argument);
  PrepareEnvironment(options, argv);
  TensorFlowCApi api;
  try {
    api = LoadTensorFlow(options.tensorflow_dir);
  } catch (const std::exception& error) {
    std::cerr << "tf_driver: cannot load TensorFlow: " << error.what() << '\n';
    return 2;
  }
  if (options.version) {
    // Which release is installed, before any plugin: its op definitions decide the generated
    // cases (harness/kernels/installed_cases.h).
    std::cout << json{{"tensorflow_version", api.version()}}.dump() << std::endl;
    return 0;
  }
  if (options.batch) return RunBatch(api, options);
  std::cout << Drive(api, options.single, options.timeout_ms, options.step_timeout_ms).dump(2)
            << std::endl;
  return 0;
}

}  // namespace tensorflow_driver
