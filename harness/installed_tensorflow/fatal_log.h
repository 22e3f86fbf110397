#pragma once
// TensorFlow's last words: when it refuses a plugin through TF_LoadPluggableDeviceLibrary it
// does not return the status, it logs it at FATAL level and aborts. This reads the status code
// and message back out of the captured log.
#include <optional>
#include <string>

namespace tensorflow_driver {

struct FatalLog {
  std::string line;         // the FATAL log line as logged (first line of the message)
  std::string message;      // the status message, or the whole log message when no status is in it
  std::optional<int> code;  // TF_Code, from the status code's name
  std::string code_name;    // e.g. FAILED_PRECONDITION
};

// The last FATAL entry of `output` (TensorFlow's log format: a severity letter F), or uncaught
// absl::BadStatusOrAccess, if any.
std::optional<FatalLog> FindFatalLog(const std::string& output);

// TF_Code of a status code name (absl/TSL spelling, e.g. "NOT_FOUND"), nullopt if unknown.
std::optional<int> CodeOfName(const std::string& name);

}  // namespace tensorflow_driver
