#include "isolate/crash_handler.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <iterator>

namespace conformance::isolate {
namespace {

// SIGSYS: a call the harness guard refused (harness_guard.h).
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS};

CrashRecord* g_record = nullptr;

// Static rather than allocated so a child pays nothing for it until a crash touches it; large
// because sanitizer-instrumented handler code and the unwinder need far more than SIGSTKSZ.
alignas(64) char g_alternate_stack[256 * 1024];

std::uintptr_t InterruptedPc(const void* context) {
  const auto* ucontext = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(ucontext->uc_mcontext.gregs[REG_RIP]);
#elif defined(__i386__)
  return static_cast<std::uintptr_t>(ucontext->uc_mcontext.gregs[REG_EIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(ucontext->uc_mcontext.pc);
#else
  (void)ucontext;
  return 0;
#endif
}

void CopyModulePath(char* out, const char* path) {
  std::size_t i = 0;
  if (path != nullptr) {
    for (; i + 1 < kModulePathSize && path[i] != '\0'; ++i) out[i] = path[i];
  }
  out[i] = '\0';
}

// The six argument registers of the interrupted system call (the kernel's syscall ABI).
void RecordRefusedCall(const siginfo_t* info, const void* context, CrashRecord* record) {
  constexpr int kSysSeccomp = 1;  // si_code of a seccomp trap (SYS_SECCOMP, linux/signal.h)
  if (info->si_code != kSysSeccomp) return;
  const auto* ucontext = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  const greg_t* regs = ucontext->uc_mcontext.gregs;
  const greg_t args[6] = {regs[REG_RDI], regs[REG_RSI], regs[REG_RDX],
                          regs[REG_R10], regs[REG_R8],  regs[REG_R9]};
#elif defined(__aarch64__)
  const auto* args = ucontext->uc_mcontext.regs;
#endif
  for (int i = 0; i < 6; ++i) record->refused_args[i] = static_cast<std::uint64_t>(args[i]);
  record->refused_syscall = info->si_syscall;
}

[[noreturn]] void DieOf(int signal_number) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
  raise(signal_number);
  _exit(128 + signal_number);  // unreachable unless the default action was overridden
}

void OnCrashSignal(int signal_number, siginfo_t* info, void* context) {
  CrashRecord* record = g_record;
  if (record == nullptr) DieOf(signal_number);
  int unclaimed = 0;
  if (!record->claimed.compare_exchange_strong(unclaimed, 1)) {
    // Another thread is already reporting and will take the process down with it.
    for (;;) pause();
  }
  record->code = info->si_code;
  record->fault_address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (signal_number == SIGSYS) RecordRefusedCall(info, context, record);
  record->signal.store(signal_number);

  void* raw[kMaxCrashFrames + 16];
  const int raw_count = backtrace(raw, static_cast<int>(std::size(raw)));
  const std::uintptr_t pc = InterruptedPc(context);

  // Everything before the interrupted pc is this handler and the kernel's signal trampoline.
  int first = -1;
  for (int i = 0; i < raw_count && pc != 0; ++i) {
    if (reinterpret_cast<std::uintptr_t>(raw[i]) == pc) {
      first = i;
      break;
    }
  }
  int count = 0;
  if (first < 0) {
    // The unwinder did not get through the signal frame: keep at least the interrupted pc.
    if (pc != 0) record->frames[count++].pc = pc;
    first = raw_count;
  }
  record->first_frame_is_fault_pc = pc != 0;
  for (int i = first; i < raw_count && count < static_cast<int>(kMaxCrashFrames); ++i) {
    record->frames[count++].pc = reinterpret_cast<std::uintptr_t>(raw[i]);
  }
  record->frame_count.store(count);

  for (int i = 0; i < count; ++i) {
    CrashFrame& frame = record->frames[i];
    Dl_info module{};
    // NOLINTNEXTLINE(performance-no-int-to-ptr): the signal context gives the pc as an integer.
    if (dladdr(reinterpret_cast<void*>(frame.pc), &module) != 0) {
      frame.module_base = reinterpret_cast<std::uintptr_t>(module.dli_fbase);
      CopyModulePath(frame.module, module.dli_fname);
    } else {
      frame.module[0] = '\0';
    }
    record->resolved_count.store(i + 1);
  }
  DieOf(signal_number);
}

}  // namespace

void PreloadUnwinder() {
  static const bool loaded = [] {
    void* frames[2];
    backtrace(frames, 2);
    return true;
  }();
  (void)loaded;
}

void InstallCrashHandlers(CrashRecord* record) {
  g_record = record;

  stack_t alternate{};
  alternate.ss_sp = g_alternate_stack;
  alternate.ss_size = sizeof(g_alternate_stack);
  sigaltstack(&alternate, nullptr);

  struct sigaction action {};
  action.sa_sigaction = OnCrashSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  // A second fault while reporting must not re-enter the handler: blocked synchronous faults
  // make the kernel kill the process outright, which still reports the signal.
  sigemptyset(&action.sa_mask);
  for (int signal_number : kCrashSignals) sigaddset(&action.sa_mask, signal_number);
  for (int signal_number : kCrashSignals) sigaction(signal_number, &action, nullptr);

  // The mask is inherited from the parent, which may block these; blocked, a fault would kill
  // the child without a report.
  pthread_sigmask(SIG_UNBLOCK, &action.sa_mask, nullptr);
}

}  // namespace conformance::isolate
