#pragma once
// Which installed TensorFlow `plugin_conformance --tensorflow DIR|auto` means, and which of the
// suite's profiles emulates that release.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tensorflow_driver {

// The library in the package folder that carries the C and eager C APIs the driver calls, from
// TensorFlow 2.12; up to 2.11 only the Python extension has them (kPythonExtensionLibrary).
inline constexpr const char* kTensorFlowLibrary = "libtensorflow_cc.so.2";
inline constexpr const char* kPythonExtensionLibrary = "python/_pywrap_tensorflow_internal.so";

// Why `dir` is not an installed tensorflow package folder (it has neither kTensorFlowLibrary
// nor kPythonExtensionLibrary, naming the files looked for); nullopt when it is one.
std::optional<std::string> TensorFlowDirProblem(const std::string& dir);

struct FoundTensorFlow {
  std::string dir;                 // empty when none was found
  std::vector<std::string> tried;  // each attempt and how it ended, for the error message
};

// An interpreter that does not answer in this time is given up on (a wrapper script waiting
// for input, a hung network mount), and `auto` goes on to the next one.
inline constexpr int kInterpreterTimeoutMs = 20000;

// `--tensorflow auto`: asks each Python interpreter on PATH (python3, then python) where its
// `tensorflow` package is, without importing it (a package whose import fails still has its
// libraries); the first folder that holds kTensorFlowLibrary wins.
FoundTensorFlow FindInstalledTensorFlow(int timeout_ms = kInterpreterTimeoutMs);

// The profile that emulates TensorFlow `release` ("2.21.0"): the one whose `releases` range
// ("2.19-2.21", "2.16-2.18", "2.10", or an open "2.22+") holds its major.minor. `profiles` are
// (name, releases) pairs; nullopt when none holds it or the release cannot be read.
std::optional<std::string> ProfileForRelease(
    const std::string& release, const std::vector<std::pair<std::string, std::string>>& profiles);

}  // namespace tensorflow_driver
