#pragma once
// Runs the driver as a process of its own (never TensorFlow in the caller's process): the
// driver executable (driver_main.h), its stdout read back as the driver's JSON.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tensorflow_driver {

// The driver executable's name; plugin_conformance finds it in its own folder.
inline constexpr const char* kDriverExecutable = "plugin_conformance_tf_driver";

struct DriverRequest {
  std::string executable;      // the driver (kDriverExecutable)
  std::string tensorflow_dir;  // the installed package folder
  std::string plugin;
  std::string co_load;        // loaded first when set
  std::string kernel_cases;   // a kernel_case_dump JSON file to run, when set
  std::int64_t timeout_ms{};  // the plugin's child; loading TensorFlow gets its own allowance
  std::string model_graphs;   // a model dump JSON file to run as graphs, when set
};

// The driver's JSON for the plugin (driver_outcome.h); with no plugin, {"tensorflow_version"}
// of the installed release only. Throws std::runtime_error naming what
// went wrong (with the driver's stderr) when the driver gives no JSON: TensorFlow could not be
// loaded from that folder, or the driver died.
nlohmann::json RunDriverProcess(const DriverRequest& request);

}  // namespace tensorflow_driver
