#include "installed_tensorflow/driver_outcome.h"

#include <sstream>
#include <string>

#include "installed_tensorflow/fatal_log.h"
#include "installed_tensorflow/model_graphs.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

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

// What the child was doing when it died, from the last line it reported: a `*_started` line
// names the copy, op, kernel case or model it never finished; any other line, the step after it.
json InFlight(const json& last) {
  const std::string step = last.value("step", "");
  if (step == "started" || step == "co_load") return {{"step", "load"}};
  if (step == "load") return {{"step", "devices"}};
  if (step == "copy_started") return {{"step", "copy"}, {"dtype", last.value("dtype", "")}};
  if (step == "op_started") return {{"step", "op"}, {"op", last.value("op", "")}};
  if (step == "kernel_case_started") {
    return {{"step", "kernel_case"}, {"id", last["case"].value("id", "")}};
  }
  if (step == std::string(kModelGraphStep) + "_started") {
    return {{"step", kModelGraphStep}, {"model", last["result"].value("model", "")}};
  }
  if (step == "finished") return {{"step", "finished"}};
  return {{"step", "after"}, {"last", step}};
}

}  // namespace

json Outcome(const PluginRequest& request, const ChildResult& child) {
  json result = {{"plugin", request.path}};
  if (!request.co_load.empty()) result["co_load"] = request.co_load;
  std::string last_step;
  json last_line = json::object();
  json started_case;  // the kernel case running when the child died, if it did
  std::istringstream lines(child.report);
  for (std::string line; std::getline(lines, line);) {
    const json step = json::parse(line, nullptr, false);
    if (step.is_discarded()) continue;
    last_step = step["step"];
    last_line = step;
    if (last_step == "started") result["tensorflow_version"] = step["tensorflow_version"];
    if (last_step == "co_load") result["co_load_status"] = step["result"];
    if (last_step == "load") result["load_status"] = step["result"];
    if (last_step == "devices") {
      result["devices"] = step.value("devices", json::array());
      if (step.contains("status")) result["devices_status"] = step["status"];
    }
    if (last_step == "copy") result["copies"].push_back(step["result"]);
    if (last_step == "op") result["ops"].push_back(step["result"]);
    if (last_step == "kernel_case_started") started_case = step["case"];
    if (last_step == "kernel_case") result["kernel_cases"].push_back(step["result"]);
    if (last_step == "cpu_kernels") result["cpu_kernels"] = step["kernels"];
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
                      {"in_flight", InFlight(last_line)},
                      {"signal", child.signal},
                      {"exit_code", child.exit_code},
                      {"timed_out", child.timed_out}};
    if (child.timed_out) {
      result["died"]["stalled"] = child.stalled;
      result["died"]["limit_ms"] = child.limit_ms;
    }
    if (last_step == "kernel_case_started") {
      started_case["died"] = result["died"];
      result["kernel_cases"].push_back(started_case);
    }
  }
  result["log"] = Tail(child.output, 4000);
  return result;
}

}  // namespace tensorflow_driver
