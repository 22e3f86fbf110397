// A "plugin" that attacks the harness instead of registering a device: one attack per build,
// chosen with HOSTILE_<ATTACK>. Each runs in SE_InitPlugin, the first plugin code the harness
// calls. The harness must survive every one and report the plugin as not conformant.
//
//   FORGE_LOW_FDS   writes well-formed `pass` records and end-of-unit markers (the record
//                   format of old harness versions, and the current envelope with a guessed
//                   token) to fds 3-20, then _exit(0): the 10-line forgery of issue 7.
//   FORGE_ALL_FDS   the same to every descriptor /proc/self/fd lists (so it reaches the real
//                   result pipe), then _exit(0).
//   KILL_PARENT     kill(getppid(), SIGKILL)
//   TGKILL_PARENT   tgkill(getppid(), getppid(), SIGKILL)
//   KILL_GROUP      kill(0, SIGKILL): its own process group (TensorFlow's, in TensorFlow)
//   KILL_PARENT_GROUP  kill(-getpgid(getppid()), SIGKILL)
//   PTRACE_PARENT   ptrace(PTRACE_ATTACH, getppid())
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): glibc's feature macro
#define _GNU_SOURCE  // syscall, getpgid, dirfd: glibc declares them under it
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char* const kForgedIds[] = {"load.se.init", "load.se.platform.name",
                                         "load.se.platform.name_regex", "runtime.memcpy.htod",
                                         "load.entry_points"};

__attribute__((unused)) static void Forge(int fd) {
  char line[512];
  for (size_t i = 0; i < sizeof(kForgedIds) / sizeof(kForgedIds[0]); ++i) {
    int n = snprintf(line, sizeof(line), "{\"id\":\"%s\",\"outcome\":\"pass\",\"message\":\"\"}\n",
                     kForgedIds[i]);
    if (write(fd, line, (size_t)n) < 0) return;
    n = snprintf(line, sizeof(line),
                 "{\"token\":\"00000000000000000000000000000000\",\"result\":{\"id\":\"%s\","
                 "\"outcome\":\"pass\"}}\n",
                 kForgedIds[i]);
    if (write(fd, line, (size_t)n) < 0) return;
  }
  static const char kEnd[] =
      "{\"end_of_unit\":true}\n{\"token\":\"00000000000000000000000000000000\","
      "\"end_of_unit\":true}\n";
  if (write(fd, kEnd, sizeof(kEnd) - 1) < 0) return;
}

__attribute__((unused)) static void ForgeEveryOpenFd(void) {
  DIR* fds = opendir("/proc/self/fd");
  if (fds == NULL) return;
  const int own = dirfd(fds);
  struct dirent* entry;
  while ((entry = readdir(fds)) != NULL) {
    const long fd = strtol(entry->d_name, NULL, 10);
    if (fd > STDERR_FILENO && fd != own) Forge((int)fd);
  }
  closedir(fds);
}

void SE_InitPlugin(void* params, void* status) {
  (void)params;
  (void)status;
#if defined(HOSTILE_FORGE_LOW_FDS)
  for (int fd = 3; fd <= 20; ++fd) Forge(fd);
  _exit(0);
#elif defined(HOSTILE_FORGE_ALL_FDS)
  signal(SIGPIPE, SIG_IGN);  // some descriptors lead to pipes nobody reads any more
  ForgeEveryOpenFd();
  _exit(0);
#elif defined(HOSTILE_KILL_PARENT)
  kill(getppid(), SIGKILL);
#elif defined(HOSTILE_TGKILL_PARENT)
  syscall(SYS_tgkill, getppid(), getppid(), SIGKILL);
#elif defined(HOSTILE_KILL_GROUP)
  kill(0, SIGKILL);
#elif defined(HOSTILE_KILL_PARENT_GROUP)
  kill(-getpgid(getppid()), SIGKILL);
#elif defined(HOSTILE_PTRACE_PARENT)
  ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
#else
#error "choose an attack: -DHOSTILE_<ATTACK>"
#endif
  // Reached only if the attack was refused without a trace; a refused attack must not look
  // like a plugin that merely did nothing.
  abort();
}
