#include "isolate/descendants.h"

#include <dirent.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <thread>

namespace conformance::isolate {
namespace {

constexpr auto kDeathGrace = std::chrono::milliseconds(500);
constexpr auto kRetryInterval = std::chrono::milliseconds(1);

std::vector<std::string> NumericEntries(const char* directory) {
  std::vector<std::string> names;
  DIR* dir = opendir(directory);
  if (dir == nullptr) return names;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9') names.emplace_back(entry->d_name);
  }
  closedir(dir);
  return names;
}

// The parent pid in /proc/PID/stat: the field after the ")" that ends the command name.
pid_t ParentOf(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  const auto close = line.rfind(')');
  if (close == std::string::npos) return -1;
  char state = 0;
  int ppid = -1;
  // The count sscanf returns is the conversion check cert-err34-c asks for.
  // NOLINTNEXTLINE(cert-err34-c)
  if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) != 2) return -1;
  return ppid;
}

}  // namespace

OrphanAdoption::OrphanAdoption() {
  prctl(PR_GET_CHILD_SUBREAPER, &previous_, 0, 0, 0);
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

OrphanAdoption::~OrphanAdoption() { prctl(PR_SET_CHILD_SUBREAPER, previous_, 0, 0, 0); }

std::vector<pid_t> ChildrenOfThisProcess() {
  std::set<pid_t> children;
  bool have_children_files = false;
  for (const std::string& task : NumericEntries("/proc/self/task")) {
    std::ifstream file("/proc/self/task/" + task + "/children");
    if (!file) continue;
    have_children_files = true;
    for (pid_t pid = 0; file >> pid;) children.insert(pid);
  }
  if (!have_children_files) {
    // Kernels without CONFIG_PROC_CHILDREN: every process's parent, the slow way.
    const pid_t self = getpid();
    for (const std::string& pid : NumericEntries("/proc")) {
      if (ParentOf(pid) == self) children.insert(std::stoi(pid));
    }
  }
  return {children.begin(), children.end()};
}

std::size_t KillOrphans(const std::vector<pid_t>& keep, std::vector<pid_t>& unreaped) {
  std::set<pid_t> dying;  // killed, not yet reaped
  std::size_t killed = 0;
  auto deadline = std::chrono::steady_clock::now() + kDeathGrace;
  for (;;) {
    bool found_new = false;
    for (const pid_t pid : ChildrenOfThisProcess()) {
      if (std::find(keep.begin(), keep.end(), pid) != keep.end() || dying.contains(pid)) continue;
      if (std::find(unreaped.begin(), unreaped.end(), pid) != unreaped.end()) continue;
      kill(pid, SIGKILL);
      dying.insert(pid);
      ++killed;
      found_new = true;
    }
    const std::size_t reaped =
        std::erase_if(dying, [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
    // Whatever was just reaped handed its own children to us before it died: look again.
    if (!found_new && reaped == 0 && dying.empty()) break;
    if (found_new || reaped > 0) deadline = std::chrono::steady_clock::now() + kDeathGrace;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(kRetryInterval);
  }
  unreaped.insert(unreaped.end(), dying.begin(), dying.end());
  return killed;
}

}  // namespace conformance::isolate
