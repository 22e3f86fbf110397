// tf_driver: loads PluggableDevice plugins into real TensorFlow (the installed wheel, through
// its C API) and prints, per plugin, one JSON object saying what TensorFlow did. Schema and
// usage: README.md in this folder.
//
//   tf_driver --tensorflow DIR [--timeout-ms N] [--co-load OTHER.so] PLUGIN.so
//   tf_driver --tensorflow DIR [--timeout-ms N] --batch < requests.jsonl
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "fatal_log.h"
#include "plugin_session.h"
#include "tensorflow_c_api.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

struct Options {
  std::string tensorflow_dir;
  int timeout_ms = 30000;
  bool batch = false;
  PluginRequest single;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "tf_driver: " << problem
            << "\nusage: tf_driver --tensorflow DIR [--timeout-ms N] "
               "(--batch < requests.jsonl | [--co-load OTHER.so] PLUGIN.so)\n";
  std::exit(2);
}

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--tensorflow") {
      options.tensorflow_dir = value();
    } else if (arg == "--timeout-ms") {
      options.timeout_ms = std::stoi(value());
    } else if (arg == "--co-load") {
      options.single.co_load = value();
    } else if (arg == "--batch") {
      options.batch = true;
    } else if (arg.starts_with("--") || !options.single.path.empty()) {
      Usage("unexpected argument " + arg);
    } else {
      options.single.path = arg;
    }
  }
  if (options.tensorflow_dir.empty()) Usage("--tensorflow is required");
  if (options.batch == !options.single.path.empty()) Usage("give either --batch or one plugin");
  return options;
}

// The plugin's imports of the core library resolve against the wheel's libraries (as for a
// plugin whose RUNPATH points into the installed package): the dynamic loader reads
// LD_LIBRARY_PATH once, at start, so the driver re-executes itself with it set. Also quiets
// TensorFlow's INFO and WARNING logging (FATAL and ERROR lines stay), unless the caller chose.
void PrepareEnvironment(const Options& options, char** argv) {
  if (std::getenv("TF_DRIVER_ENVIRONMENT_SET") != nullptr) return;
  std::string path = options.tensorflow_dir + ":" + options.tensorflow_dir + "/python";
  if (const char* existing = std::getenv("LD_LIBRARY_PATH"); existing && *existing) {
    path += std::string(":") + existing;
  }
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  setenv("TF_CPP_MIN_LOG_LEVEL", "2", 0);
  setenv("TF_DRIVER_ENVIRONMENT_SET", "1", 1);
  execv("/proc/self/exe", argv);
  std::perror("tf_driver: re-executing itself");
  std::exit(2);
}

std::string Tail(const std::string& text, std::size_t bytes) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

json FatalJson(const FatalLog& fatal) {
  json result = {{"line", fatal.line}, {"message", fatal.message}};
  if (fatal.code) {
    result["code"] = *fatal.code;
    result["code_name"] = fatal.code_name;
  }
  return result;
}

// After a successful load, the first eager context creates the plugin's devices (create_device,
// get_device_count, device_memory_usage, the device's validation) and the first op finalizes
// the registries (the plugin's op definitions and kernel registrations): where a plugin
// TensorFlow loaded fails at first use. `created`, `failed` (TFE_NewContext returned
// devices_status), `aborted` (the process died at any later step with a TensorFlow status in
// its FATAL log: `devices_fatal`; a FATAL line without a status, such as a failing copy, is a
// runtime failure, not this), or, while the devices were being created, `crashed` or `timeout`.
std::string DevicesOutcome(json& result, const ChildResult& child, const std::string& last_step) {
  const bool died = child.signal != 0 || child.timed_out || child.exit_code != 0;
  const auto fatal = FindFatalLog(child.output);
  if (died && fatal && (fatal->code || last_step == "load")) {
    result["devices_fatal"] = FatalJson(*fatal);
    return "aborted";
  }
  if (last_step != "load") return result.contains("devices_status") ? "failed" : "created";
  return child.timed_out ? "timeout" : "crashed";
}

// What TensorFlow did with the plugin, from the child's report and how the child ended.
json Outcome(const PluginRequest& request, const ChildResult& child) {
  json result = {{"plugin", request.path}};
  if (!request.co_load.empty()) result["co_load"] = request.co_load;
  std::string last_step;
  std::istringstream lines(child.report);
  for (std::string line; std::getline(lines, line);) {
    const json step = json::parse(line, nullptr, false);
    if (step.is_discarded()) continue;
    last_step = step["step"];
    if (last_step == "started") result["tensorflow_version"] = step["tensorflow_version"];
    if (last_step == "co_load") result["co_load_status"] = step["result"];
    if (last_step == "load") result["load_status"] = step["result"];
    if (last_step == "devices") {
      result["devices"] = step.value("devices", json::array());
      if (step.contains("status")) result["devices_status"] = step["status"];
    }
    if (last_step == "copy") result["copies"].push_back(step["result"]);
    if (last_step == "op") result["ops"].push_back(step["result"]);
  }
  const bool died = child.signal != 0 || child.timed_out || child.exit_code != 0;
  const bool load_returned = result.contains("load_status");
  if (load_returned) {
    result["outcome"] = result["load_status"]["code"] == 0 ? "loaded" : "refused";
  } else if (result.contains("co_load_status") && result["co_load_status"]["code"] != 0) {
    result["outcome"] = "co_load_refused";
  } else if (child.timed_out) {
    result["outcome"] = "timeout";
  } else if (auto fatal = FindFatalLog(child.output)) {
    result["outcome"] = "aborted";
    result["fatal"] = FatalJson(*fatal);
  } else {
    result["outcome"] = "crashed";
  }
  if (load_returned && result["outcome"] == "loaded") {
    result["devices_outcome"] = DevicesOutcome(result, child, last_step);
  }
  if (died) {
    result["died"] = {{"after_step", last_step},
                      {"signal", child.signal},
                      {"exit_code", child.exit_code},
                      {"timed_out", child.timed_out}};
  }
  result["log"] = Tail(child.output, 4000);
  return result;
}

json Drive(const TensorFlowCApi& api, const PluginRequest& request, int timeout_ms) {
  const ChildResult child =
      RunInChild([&](std::FILE* report) { RunPluginSession(api, request, report); }, timeout_ms);
  return Outcome(request, child);
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
    const PluginRequest plugin{request.at("path"), request.value("co_load", "")};
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
}  // namespace tensorflow_driver

int main(int argc, char** argv) {
  using namespace tensorflow_driver;
  const Options options = Parse(argc, argv);
  PrepareEnvironment(options, argv);
  TensorFlowCApi api;
  try {
    api = LoadTensorFlow(options.tensorflow_dir);
  } catch (const std::exception& error) {
    std::cerr << "tf_driver: cannot load TensorFlow: " << error.what() << '\n';
    return 2;
  }
  if (options.batch) return RunBatch(api, options);
  std::cout << Drive(api, options.single, options.timeout_ms).dump(2) << std::endl;
  return 0;
}
