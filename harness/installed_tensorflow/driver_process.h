#pragma once
// Runs the driver as a process of its own (never TensorFlow in the caller's process): the
// driver executable (driver_main.h), its stdout read back as the driver's JSON.
#include <cstdint>
#include <stdexcept>
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
  // The plugin's child is killed when none of its steps ends for this long (0: no such limit).
  std::int64_t step_timeout_ms{};
};

// The driver ended without its JSON for another reason than TensorFlow being unusable: it
// crashed, aborted, or outlived its deadline (`timed_out`, at `limit_ms`).
class DriverDied : public std::runtime_error {
 public:
  DriverDied(const std::string& what, bool timed_out, std::int64_t limit_ms)
      : std::runtime_error(what), timed_out(timed_out), limit_ms(limit_ms) {}
  bool timed_out;
  std::int64_t limit_ms;
};

// The driver's JSON for the plugin (driver_outcome.h); with no plugin, {"tensorflow_version"}
// of the installed release only. Throws, naming what went wrong with the driver's stderr, when
// the driver gives no JSON: std::runtime_error when TensorFlow could not be loaded from that
// folder (the driver exits 2), DriverDied when the driver died.
nlohmann::json RunDriverProcess(const DriverRequest& request);

// The driver result that stands for a driver that died (verdicts.h's kDriverDiedOutcome):
// {outcome, driver_error, driver_timed_out, driver_limit_ms, tensorflow_version when known}.
// The run goes on and reports it (session_deaths.h): a crash of the tool's TensorFlow leg is a
// result, never a usage error.
nlohmann::json DriverDiedResult(const DriverDied& died, const std::string& release);

}  // namespace tensorflow_driver
