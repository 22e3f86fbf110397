#include "installed_tensorflow/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "installed_tensorflow/memory_file.h"

namespace tensorflow_driver {
namespace {

off_t SizeOf(int fd) {
  struct stat status {};
  return fstat(fd, &status) == 0 ? status.st_size : 0;
}

}  // namespace

ChildResult RunInChild(const std::function<void(std::FILE* report)>& body, int timeout_ms,
                       int step_timeout_ms) {
  const int output_fd = NewMemoryFile("tf_driver_output", MemoryFileScope::kForkedChild);
  const int report_fd = NewMemoryFile("tf_driver_report", MemoryFileScope::kForkedChild);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // The parent's stdin is not the child's to read (or to rewind when it exits).
    const int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, STDIN_FILENO);
    dup2(output_fd, STDOUT_FILENO);
    dup2(output_fd, STDERR_FILENO);
    std::FILE* report = fdopen(dup(report_fd), "w");
    body(report);
    std::fclose(report);
    std::fflush(nullptr);
    _exit(0);
  }
  ChildResult result;
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + std::chrono::milliseconds(timeout_ms);
  auto last_progress = started;
  off_t reported = 0;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    const auto now = std::chrono::steady_clock::now();
    if (const off_t size = SizeOf(report_fd); size != reported) {
      reported = size;
      last_progress = now;
    }
    result.stalled =
        step_timeout_ms > 0 && now - last_progress > std::chrono::milliseconds(step_timeout_ms);
    if (now > deadline || result.stalled) {
      result.timed_out = true;
      result.limit_ms = result.stalled ? step_timeout_ms : timeout_ms;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = ReadAllAndClose(output_fd);
  result.report = ReadAllAndClose(report_fd);
  return result;
}

}  // namespace tensorflow_driver
