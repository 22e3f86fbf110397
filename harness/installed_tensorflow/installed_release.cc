#include "installed_tensorflow/installed_release.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>

#include "installed_tensorflow/child_process.h"

namespace tensorflow_driver {
namespace {

// Where the interpreter's `tensorflow` package is, without importing it: find_spec reads the
// import path only, so a package whose import fails (a missing CUDA library, say) still names its
// folder, which is all the driver needs (it loads the libraries itself). Exit 3: no package.
constexpr const char* kLocatePackage =
    "import importlib.util as u, os, sys; s = u.find_spec('tensorflow'); "
    "sys.exit(3) if s is None else print(os.path.dirname(s.origin) if s.origin "
    "else list(s.submodule_search_locations)[0])";

// Ask one interpreter; the attempt's description goes to `tried`.
std::string AskInterpreter(const std::string& interpreter, std::vector<std::string>& tried,
                           int timeout_ms) {
  const std::string attempt = interpreter + " -c \"" + kLocatePackage + "\"";
  // The shell is the point: `auto` asks the interpreter the user's PATH gives, as the user's own
  // `python3` would; the command is fixed text (the interpreter names are ours).
  // exec: the interpreter itself is the child, so a timeout kills it and not only the shell.
  const std::string command = "exec " + attempt + " 2>/dev/null";
  const ChildResult child = RunInChild(
      [&command](std::FILE* /*report*/) {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
      },
      timeout_ms);
  std::string output = child.output;
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  if (child.timed_out) {
    tried.push_back(attempt + ": no answer within " + std::to_string(timeout_ms) + " ms (killed)");
  } else if (child.exit_code == 127) {
    tried.push_back(attempt + ": " + interpreter + " is not on PATH");
  } else if (child.exit_code == 3) {
    tried.push_back(attempt + ": that interpreter has no tensorflow package");
  } else if (child.exit_code != 0) {
    tried.push_back(attempt + ": " +
                    (child.signal != 0 ? "killed by signal " + std::to_string(child.signal)
                                       : "exit code " + std::to_string(child.exit_code)));
  } else if (auto problem = TensorFlowDirProblem(output)) {
    tried.push_back(attempt + ": " + *problem);
  } else {
    return output;
  }
  return "";
}

// "2.21.0" → {2, 21}.
std::optional<std::pair<int, int>> MajorMinor(const std::string& version) {
  static const std::regex kVersion(R"(^(\d+)\.(\d+))");
  std::smatch match;
  if (!std::regex_search(version, match, kVersion)) return std::nullopt;
  return std::pair{std::stoi(match[1].str()), std::stoi(match[2].str())};
}

bool RangeHolds(const std::string& range, std::pair<int, int> release) {
  static const std::regex kOpenEnded(R"(^(\d+\.\d+)\+$)");
  static const std::regex kClosed(R"(^(\d+\.\d+)-(\d+\.\d+)$)");
  std::smatch match;
  if (std::regex_match(range, match, kOpenEnded)) return release >= *MajorMinor(match[1].str());
  if (std::regex_match(range, match, kClosed)) {
    return release >= *MajorMinor(match[1].str()) && release <= *MajorMinor(match[2].str());
  }
  if (auto single = MajorMinor(range)) return release == *single;
  return false;
}

}  // namespace

std::optional<std::string> TensorFlowDirProblem(const std::string& dir) {
  const std::filesystem::path library = std::filesystem::path(dir) / kTensorFlowLibrary;
  const std::filesystem::path extension = std::filesystem::path(dir) / kPythonExtensionLibrary;
  std::error_code error;
  if (std::filesystem::is_regular_file(library, error)) return std::nullopt;
  // TensorFlow 2.5 to 2.11: the C API is in the Python extension only.
  if (std::filesystem::is_regular_file(extension, error)) return std::nullopt;
  return "no " + library.string() + " (nor, as up to TensorFlow 2.11, " + extension.string() +
         "; DIR is the installed `tensorflow` package folder, e.g. .../site-packages/tensorflow)";
}

FoundTensorFlow FindInstalledTensorFlow(int timeout_ms) {
  FoundTensorFlow found;
  for (const char* interpreter : {"python3", "python"}) {
    found.dir = AskInterpreter(interpreter, found.tried, timeout_ms);
    if (!found.dir.empty()) break;
  }
  return found;
}

std::optional<std::string> ProfileForRelease(
    const std::string& release, const std::vector<std::pair<std::string, std::string>>& profiles) {
  const auto version = MajorMinor(release);
  if (!version) return std::nullopt;
  for (const auto& [name, range] : profiles) {
    if (RangeHolds(range, *version)) return name;
  }
  return std::nullopt;
}

}  // namespace tensorflow_driver
