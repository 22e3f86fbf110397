#pragma once
// Keeps a unit's child (and so the plugin in it) from ending the run: a seccomp filter,
// installed in the child after fork(), refuses the system calls that would signal, trace or
// write into the harness process (kill/tkill/tgkill/rt_*sigqueueinfo aimed at it or at its
// process group, kill(-1) and kill(0), ptrace and process_vm_* of it, pidfd_open of it). A
// refused call raises SIGSYS, which the crash handler records like any crash, so the report
// names the attempt: "the plugin tried to kill the harness (kill(PPID, SIGKILL))".
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace conformance::isolate {

struct HarnessIdentity {
  pid_t pid = 0;   // the parent, which runs the units and writes the reports
  pid_t pgid = 0;  // its process group (the shell's job, usually)
};

// False where the kernel has no seccomp filtering (the unit then runs unguarded).
bool GuardHarness(const HarnessIdentity& harness);

// What a refused call tried to do, in words, for the crash report: "the plugin tried to kill
// the harness (kill(PPID, SIGKILL))". `args` are the call's six raw arguments.
std::string DescribeRefusedCall(long syscall_number, const std::uint64_t (&args)[6],
                                const HarnessIdentity& harness);

// The short stable phrase for details["problem"]: "tried to kill the harness", ...
std::string RefusedCallProblem(long syscall_number);

}  // namespace conformance::isolate
