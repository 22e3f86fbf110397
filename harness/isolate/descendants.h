#pragma once
// Processes a plugin leaves behind. A plugin may fork helpers that call setsid() and outlive
// the unit's process group, which the timeout/exit kill reaches. To find them, the harness and
// every unit's child are child subreapers (PR_SET_CHILD_SUBREAPER): an orphan is adopted by
// the unit's child while that lives, and by the harness once the unit's child is gone. So
// every child of the harness that is not a running unit's child is debris of a finished unit.
#include <sys/types.h>

#include <cstddef>
#include <vector>

namespace conformance::isolate {

// Makes the calling process a child subreaper for the object's lifetime (restores the
// previous setting on destruction; orphans adopted meanwhile stay adopted).
class OrphanAdoption {
 public:
  OrphanAdoption();
  ~OrphanAdoption();
  OrphanAdoption(const OrphanAdoption&) = delete;
  OrphanAdoption& operator=(const OrphanAdoption&) = delete;

 private:
  int previous_ = 0;
};

// Children of the calling process (any thread of it), from /proc.
std::vector<pid_t> ChildrenOfThisProcess();

// SIGKILLs and reaps every child of this process not in `keep`, and the children those leave
// to it in turn. Returns how many processes it killed. Children that do not die within a
// short grace (stuck in the kernel) are appended to `unreaped`, for a later waitpid.
std::size_t KillOrphans(const std::vector<pid_t>& keep, std::vector<pid_t>& unreaped);

}  // namespace conformance::isolate
