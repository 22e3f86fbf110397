#include "installed_tensorflow/installed_release.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <regex>

namespace tensorflow_driver {
namespace {

// Ask one interpreter; the attempt's description goes to `tried`.
std::string AskInterpreter(const std::string& interpreter, std::vector<std::string>& tried) {
  const std::string command =
      interpreter +
      " -c 'import tensorflow, os; print(os.path.dirname(tensorflow.__file__))' 2>/dev/null";
  std::string output;
  int status = -1;
  // The shell is the point: `auto` asks the interpreter the user's PATH gives, as the user's own
  // `python3` would; the command is fixed text (the interpreter names are ours).
  if (std::FILE* pipe = popen(command.c_str(), "r")) {  // NOLINT(cert-env33-c)
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
      output.append(buffer, n);
    }
    status = pclose(pipe);
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  const std::string attempt = interpreter +
                              " -c 'import tensorflow, os; "
                              "print(os.path.dirname(tensorflow.__file__))'";
  if (status == -1 || !WIFEXITED(status)) {
    tried.push_back(attempt + ": could not be run");
  } else if (WEXITSTATUS(status) == 127) {
    tried.push_back(attempt + ": " + interpreter + " is not on PATH");
  } else if (WEXITSTATUS(status) != 0) {
    tried.push_back(attempt + ": exit code " + std::to_string(WEXITSTATUS(status)) +
                    " (no tensorflow package for that interpreter)");
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
  std::error_code error;
  if (std::filesystem::is_regular_file(library, error)) return std::nullopt;
  return "no " + library.string() +
         " (DIR is the installed `tensorflow` package folder, e.g. "
         ".../site-packages/tensorflow)";
}

FoundTensorFlow FindInstalledTensorFlow() {
  FoundTensorFlow found;
  for (const char* interpreter : {"python3", "python"}) {
    found.dir = AskInterpreter(interpreter, found.tried);
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
