#include "installed_tensorflow/driver_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "installed_tensorflow/memory_file.h"
#include "installed_tensorflow/verdicts.h"

extern char** environ;

namespace tensorflow_driver {
namespace {

// Loading TensorFlow takes seconds (more under a loaded CI machine); on top of the plugin's own
// deadline, which the driver enforces on its child.
constexpr std::chrono::seconds kLoadAllowance{120};

std::string Tail(const std::string& text) {
  constexpr std::size_t kBytes = 2000;
  return text.size() <= kBytes ? text : "..." + text.substr(text.size() - kBytes);
}

}  // namespace

nlohmann::json RunDriverProcess(const DriverRequest& request) {
  std::vector<std::string> arguments = {request.executable, "--tensorflow", request.tensorflow_dir,
                                        "--timeout-ms", std::to_string(request.timeout_ms)};
  if (!request.co_load.empty()) {
    arguments.insert(arguments.end(), {"--co-load", request.co_load});
  }
  if (!request.kernel_cases.empty()) {
    arguments.insert(arguments.end(), {"--kernel-cases", request.kernel_cases});
  }
  if (!request.model_graphs.empty()) {
    arguments.insert(arguments.end(), {"--model-graphs", request.model_graphs});
  }
  if (request.step_timeout_ms > 0 && !request.plugin.empty()) {
    arguments.insert(arguments.end(),
                     {"--step-timeout-ms", std::to_string(request.step_timeout_ms)});
  }
  // No plugin: only the installed release ({"tensorflow_version"}).
  arguments.push_back(request.plugin.empty() ? "--version" : request.plugin);
  std::vector<char*> argv;
  argv.reserve(arguments.size() + 1);
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);

  const int out_fd = NewMemoryFile("installed_tensorflow_out", MemoryFileScope::kExecutedChild);
  const int err_fd = NewMemoryFile("installed_tensorflow_err", MemoryFileScope::kExecutedChild);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, request.executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    close(out_fd);
    close(err_fd);
    throw std::runtime_error("cannot start " + request.executable);
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(request.timeout_ms) + kLoadAllowance;
  int status = 0;
  bool timed_out = false;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const std::string out = ReadAllAndClose(out_fd);
  const std::string err = ReadAllAndClose(err_fd);
  nlohmann::json result = nlohmann::json::parse(out, nullptr, false);
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 && result.is_object()) {
    return result;
  }
  // Exit code 2 is the driver's own: usage, or TensorFlow could not be loaded (driver_main.h).
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 2) {
    throw std::runtime_error("the TensorFlow driver exited with code 2: " + Tail(err));
  }
  const auto limit = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::milliseconds(request.timeout_ms) + kLoadAllowance);
  const std::string why =
      timed_out           ? "did not finish within " + std::to_string(limit.count()) + " ms"
      : WIFEXITED(status) ? "exited with code " + std::to_string(WEXITSTATUS(status)) +
                                (result.is_object() ? "" : " without its JSON")
                          : "was killed by signal " + std::to_string(WTERMSIG(status));
  throw DriverDied("the TensorFlow driver " + why + ": " + Tail(err), timed_out, limit.count());
}

nlohmann::json DriverDiedResult(const DriverDied& died, const std::string& release) {
  nlohmann::json result = {{"outcome", kDriverDiedOutcome},
                           {"driver_error", died.what()},
                           {"driver_timed_out", died.timed_out},
                           {"driver_limit_ms", died.limit_ms}};
  if (!release.empty()) result["tensorflow_version"] = release;
  return result;
}

}  // namespace tensorflow_driver
