#include "kernels/sibling_process.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "isolate/in_flight.h"

namespace conformance::kernels {
namespace {

// In the sibling process: crashes must not look like the unit's own (the isolator's handlers
// report into state shared with the parent), so they get the default action.
void ForgetCrashHandlers() {
  for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP})
    std::signal(signal_number, SIG_DFL);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
}

bool WriteAll(int fd, const std::vector<std::uint8_t>& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

SiblingResult RunInSibling(const std::function<std::vector<std::uint8_t>()>& compute,
                           const std::string& plugin_path, const std::string& waiting_for) {
  SiblingResult result;
  int fds[2];
  if (pipe(fds) != 0) {
    result.failure = "cannot create a pipe for the reference process";
    return result;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    result.failure = "cannot fork the reference process";
    return result;
  }
  if (pid == 0) {
    close(fds[0]);
    ForgetCrashHandlers();
    const bool written = WriteAll(fds[1], compute());
    _exit(written ? 0 : 1);
  }
  close(fds[1]);
  const in_flight::Waiting waiting("", "", waiting_for);
  std::uint8_t chunk[65536];
  for (ssize_t n; (n = read(fds[0], chunk, sizeof chunk)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    result.bytes.insert(result.bytes.end(), chunk, chunk + n);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    // Not only the reference plugin's: the candidate's registrations and op definitions are
    // listed in a sibling too.
    result.failure = "the process loading " + plugin_path + " died of signal " +
                     std::to_string(WTERMSIG(status));
  }
  return result;
}

}  // namespace conformance::kernels
