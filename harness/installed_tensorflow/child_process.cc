#include "installed_tensorflow/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace tensorflow_driver {
namespace {

// Anonymous files, not pipes: the child may write more than a pipe holds while nobody reads.
int AnonymousFile(const char* name) {
  const int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) throw std::runtime_error("memfd_create failed");
  return fd;
}

std::string ReadAll(int fd) {
  std::string text;
  char buffer[65536];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fd);
  return text;
}

off_t SizeOf(int fd) {
  struct stat status {};
  return fstat(fd, &status) == 0 ? status.st_size : 0;
}

}  // namespace

ChildResult RunInChild(const std::function<void(std::FILE* report)>& body, int timeout_ms,
                       int step_timeout_ms) {
  const int output_fd = AnonymousFile("tf_driver_output");
  const int report_fd = AnonymousFile("tf_driver_report");
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
  result.output = ReadAll(output_fd);
  result.report = ReadAll(report_fd);
  return result;
}

}  // namespace tensorflow_driver
