#include "loader/dlopen_probe.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace conformance::loader {
namespace {

constexpr char kLoaded = 'L';
constexpr char kFailed = 'F';

[[noreturn]] void ProbeAndReport(const std::filesystem::path& path, int report_fd) {
  // The crash handlers the child inherited would record into the unit's shared crash record;
  // this process's death is reported by its parent instead.
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS}) {
    ::signal(signal_number, SIG_DFL);
  }
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string report(1, handle != nullptr ? kLoaded : kFailed);
  if (handle == nullptr) {
    const char* error = dlerror();
    report += error != nullptr ? error : "unknown dynamic loader error";
  }
  std::string_view rest = report;
  while (!rest.empty()) {
    const ssize_t written = write(report_fd, rest.data(), rest.size());
    if (written <= 0) break;
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
  _exit(0);  // no atexit handlers, no static destructors, no plugin destructors
}

std::string ReadAll(int fd, std::chrono::steady_clock::time_point deadline, bool& timed_out) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      return text;
    }
    pollfd wait{fd, POLLIN, 0};
    const int ready = poll(&wait, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // re-check the deadline
    const ssize_t got = read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace

DlopenProbe ProbeDlopenInChild(const std::filesystem::path& path,
                               std::chrono::milliseconds timeout) {
  DlopenProbe probe;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    probe.message = std::string("could not probe dlopen: pipe2: ") + std::strerror(errno);
    return probe;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    probe.message = std::string("could not probe dlopen: fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return probe;
  }
  if (pid == 0) {
    close(fds[0]);
    ProbeAndReport(path, fds[1]);
  }
  close(fds[1]);
  bool timed_out = false;
  const std::string report = ReadAll(fds[0], std::chrono::steady_clock::now() + timeout, timed_out);
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  if (!report.empty() && report[0] == kLoaded) {
    probe.loaded = true;
  } else if (!report.empty() && report[0] == kFailed) {
    probe.message = "dlopen failed: " + report.substr(1);
  } else if (timed_out) {
    probe.message = "dlopen did not return within " + std::to_string(timeout.count()) + " ms";
  } else if (WIFSIGNALED(status)) {
    const char* name = sigabbrev_np(WTERMSIG(status));
    const char* description = sigdescr_np(WTERMSIG(status));
    probe.message = std::string("dlopen died of SIG") + (name != nullptr ? name : "?") + " (" +
                    (description != nullptr ? description : "unknown signal") + ")";
  } else {
    probe.message = "dlopen ended its process (exit status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  }
  return probe;
}

}  // namespace conformance::loader
