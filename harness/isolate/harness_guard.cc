#include "isolate/harness_guard.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include <cstring>
#include <vector>

#include "isolate/signal_names.h"

namespace conformance::isolate {
namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
#else
#error "harness_guard: add this architecture's AUDIT_ARCH value"
#endif

// seccomp_data.args[i] is 64 bits; pids and signal numbers are ints, of which the kernel uses
// the low 32 bits (the low word comes first on these little-endian targets).
constexpr std::uint32_t ArgLow(int index) {
  return static_cast<std::uint32_t>(offsetof(seccomp_data, args) +
                                    std::size_t{8} * static_cast<std::size_t>(index));
}
constexpr std::uint32_t AsWord(pid_t value) { return static_cast<std::uint32_t>(value); }

class FilterBuilder {
 public:
  void Load(std::uint32_t offset) { code_.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void Return(std::uint32_t action) { code_.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
  // If the accumulator equals `value`, return `action`; otherwise fall through.
  void ReturnIfEqual(std::uint32_t value, std::uint32_t action) {
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
    Return(action);
  }
  // Instructions up to the matching EndRule() run only if the accumulator equals `value`.
  void BeginRule(std::uint32_t value) {
    rule_start_ = code_.size();
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 0));
  }
  void EndRule() {
    code_[rule_start_].jf = static_cast<std::uint8_t>(code_.size() - rule_start_ - 1);
  }
  std::vector<sock_filter>& code() { return code_; }

 private:
  std::vector<sock_filter> code_;
  std::size_t rule_start_ = 0;
};

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kTrap = SECCOMP_RET_TRAP;

// One syscall whose argument `pid_arg` names a process: trap when it names the harness.
struct PidCall {
  long number;
  int pid_arg;
};

// Appends: "if nr == call: trap when arg == harness pid, else allow".
void AddPidRule(FilterBuilder& filter, const PidCall& call, pid_t harness) {
  filter.BeginRule(static_cast<std::uint32_t>(call.number));
  filter.Load(ArgLow(call.pid_arg));
  filter.ReturnIfEqual(AsWord(harness), kTrap);
  filter.Return(kAllow);
  filter.EndRule();
}

std::string SignalText(std::uint64_t value) {
  const int number = static_cast<int>(value);
  return number == 0 ? "0" : SignalName(number);
}

std::string PidText(std::uint64_t value, const HarnessIdentity& harness) {
  const auto pid = static_cast<pid_t>(value);
  if (pid == harness.pid) return "PPID";
  if (pid == -harness.pgid) return "-PGID";
  return std::to_string(pid);
}

}  // namespace

bool GuardHarness(const HarnessIdentity& harness) {
  FilterBuilder filter;
  filter.Load(offsetof(seccomp_data, arch));
  // A foreign ABI (32-bit calls on a 64-bit kernel) has other syscall numbers: refuse it all
  // rather than let it around the rules below. Plugins never use it.
  filter.code().push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
  filter.Return(SECCOMP_RET_ERRNO | ENOSYS);
  filter.Load(offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  // The x32 ABI shares the arch value; its numbers have bit 30 set.
  filter.code().push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
  filter.Return(SECCOMP_RET_ERRNO | ENOSYS);
#endif

  // kill(pid, sig): signal 0 only probes. Otherwise refuse the harness, every process
  // (-1), the harness's group and the caller's own group (0: in TensorFlow, that group is
  // the TensorFlow process's).
  filter.BeginRule(SYS_kill);
  filter.Load(ArgLow(1));
  filter.ReturnIfEqual(0, kAllow);
  filter.Load(ArgLow(0));
  filter.ReturnIfEqual(AsWord(harness.pid), kTrap);
  filter.ReturnIfEqual(AsWord(-1), kTrap);
  filter.ReturnIfEqual(0, kTrap);
  filter.ReturnIfEqual(AsWord(-harness.pgid), kTrap);
  filter.Return(kAllow);
  filter.EndRule();

  // ptrace(request, pid, ...): PTRACE_TRACEME names no pid.
  filter.BeginRule(SYS_ptrace);
  filter.Load(ArgLow(0));
  filter.ReturnIfEqual(PTRACE_TRACEME, kAllow);
  filter.Load(ArgLow(1));
  filter.ReturnIfEqual(AsWord(harness.pid), kTrap);
  filter.Return(kAllow);
  filter.EndRule();

  // The harness is single-threaded while units run, so its only thread id is its pid.
  for (const PidCall call :
       {PidCall{SYS_tkill, 0}, PidCall{SYS_tgkill, 0}, PidCall{SYS_rt_sigqueueinfo, 0},
        PidCall{SYS_rt_tgsigqueueinfo, 0}, PidCall{SYS_process_vm_readv, 0},
        PidCall{SYS_process_vm_writev, 0}, PidCall{SYS_pidfd_open, 0}}) {
    AddPidRule(filter, call, harness.pid);
  }
  filter.Return(kAllow);

  sock_fprog program{};
  program.len = static_cast<unsigned short>(filter.code().size());
  program.filter = filter.code().data();
  // Without CAP_SYS_ADMIN a filter needs no_new_privs (setuid programs the plugin runs then
  // do not gain privileges, which a conformance run never needs).
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

std::string RefusedCallProblem(long syscall_number) {
  switch (syscall_number) {
    case SYS_ptrace: return "tried to trace the harness";
    case SYS_process_vm_readv:
    case SYS_process_vm_writev: return "tried to access the harness's memory";
    case SYS_pidfd_open: return "tried to open a handle on the harness";
    default: return "tried to kill the harness";
  }
}

std::string DescribeRefusedCall(long syscall_number, const std::uint64_t (&args)[6],
                                const HarnessIdentity& harness) {
  const auto pid = [&](int i) { return PidText(args[i], harness); };
  std::string call;
  switch (syscall_number) {
    case SYS_kill: call = "kill(" + pid(0) + ", " + SignalText(args[1]) + ")"; break;
    case SYS_tkill: call = "tkill(" + pid(0) + ", " + SignalText(args[1]) + ")"; break;
    case SYS_tgkill:
      call = "tgkill(" + pid(0) + ", " + std::to_string(static_cast<pid_t>(args[1])) + ", " +
             SignalText(args[2]) + ")";
      break;
    case SYS_rt_sigqueueinfo:
      call = "rt_sigqueueinfo(" + pid(0) + ", " + SignalText(args[1]) + ", ...)";
      break;
    case SYS_rt_tgsigqueueinfo: call = "rt_tgsigqueueinfo(" + pid(0) + ", ...)"; break;
    case SYS_ptrace:
      call = "ptrace(" + std::to_string(static_cast<long>(args[0])) + ", " + pid(1) + ", ...)";
      break;
    case SYS_process_vm_readv: call = "process_vm_readv(" + pid(0) + ", ...)"; break;
    case SYS_process_vm_writev: call = "process_vm_writev(" + pid(0) + ", ...)"; break;
    case SYS_pidfd_open: call = "pidfd_open(" + pid(0) + ", ...)"; break;
    default: call = "system call " + std::to_string(syscall_number);
  }
  return "the plugin " + RefusedCallProblem(syscall_number) + " (" + call + ")";
}

}  // namespace conformance::isolate
