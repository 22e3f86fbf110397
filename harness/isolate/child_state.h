#pragma once
// The state a unit's child process shares with the parent: what it is doing (in_flight) and,
// if it crashed, what the crash handler captured. It lives in a MAP_SHARED mapping created
// before fork(), so the parent can read it after the child died, however it died. Everything
// here is fixed-size plain memory: signal handlers write it, and a SIGKILL may land mid-write.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace conformance::isolate {

// A short string that stays readable whatever interrupts its writer (a signal handler, a
// SIGKILL, a crash): the writer fills the slot readers are not looking at, then publishes it.
template <std::size_t N>
class SignalSafeText {
 public:
  static constexpr std::size_t kCapacity = N;

  void Set(std::string_view text) noexcept {
    const unsigned next = 1U - active_.load(std::memory_order_relaxed);
    const std::size_t length = std::min(text.size(), N - 1);
    if (length > 0) std::memcpy(slots_[next], text.data(), length);  // data() may be null
    slots_[next][length] = '\0';
    active_.store(next, std::memory_order_release);
  }

  // Empties the text. Set({}) would too, but GCC 12 at -O3 sees an empty view's null data()
  // through Set's guard and fails -Wnonnull.
  void Clear() noexcept {
    const unsigned next = 1U - active_.load(std::memory_order_relaxed);
    slots_[next][0] = '\0';
    active_.store(next, std::memory_order_release);
  }

  // `out` must hold N bytes; used to save and restore without allocating.
  void CopyTo(char* out) const noexcept {
    const char* current = slots_[active_.load(std::memory_order_acquire)];
    std::size_t i = 0;
    for (; i + 1 < N && current[i] != '\0'; ++i) out[i] = current[i];
    out[i] = '\0';
  }

  bool Empty() const noexcept { return slots_[active_.load(std::memory_order_acquire)][0] == '\0'; }

  std::string Get() const {
    const char* current = slots_[active_.load(std::memory_order_acquire)];
    return std::string(current, strnlen(current, N));
  }

 private:
  char slots_[2][N] = {};
  std::atomic<unsigned> active_{0};
};

inline constexpr std::size_t kMaxCrashFrames = 64;
inline constexpr std::size_t kModulePathSize = 512;

struct CrashFrame {
  std::uintptr_t pc = 0;
  std::uintptr_t module_base = 0;  // where the module's first segment is mapped (dli_fbase)
  char module[kModulePathSize] = {};
};

// Filled by the crash handler in the order the fields are declared, each counter published
// only after the data it covers, so a handler that itself dies half-way still leaves a usable
// prefix (signal, then raw pcs, then module names).
struct CrashRecord {
  std::atomic<int> claimed{0};  // first crashing thread wins; others wait to be killed
  int code = 0;                 // si_code
  std::uintptr_t fault_address = 0;
  bool first_frame_is_fault_pc = false;  // frame 0 is the interrupted pc, not a return address
  std::atomic<int> signal{0};            // 0: no crash handler ran
  std::atomic<int> frame_count{0};       // frames whose pc is recorded
  std::atomic<int> resolved_count{0};    // frames whose module is recorded
  // SIGSYS from the harness guard (harness_guard.h): the refused call, published before
  // `signal`. -1 for every other signal.
  long refused_syscall = -1;
  std::uint64_t refused_args[6] = {};
  CrashFrame frames[kMaxCrashFrames];
};

inline constexpr int kNoExitCall = -1;

struct ChildState {
  SignalSafeText<256> check;
  SignalSafeText<128> call;
  // The innermost plugin call an exception unwound through; RAII has already restored `call`
  // by the time anyone can look, so this is what names the call an exception escaped from.
  SignalSafeText<128> unwound_call;
  // Set around a call TensorFlow never makes (or never with these arguments): why, for the
  // message of a crash or timeout inside it (in_flight::OffTensorFlowPath).
  SignalSafeText<256> off_path;
  // What the harness waits for outside any plugin call (in_flight::Waiting): the callback to
  // blame, the problem phrase, and the description a timeout reports.
  SignalSafeText<64> waiting_call;
  SignalSafeText<64> waiting_problem;
  SignalSafeText<256> waiting_for;
  // Set while the harness probes whether an earlier call's result is real (in_flight::Probing):
  // a crash or timeout inside is that earlier call's defect, not the probe's.
  SignalSafeText<64> probing_call;
  SignalSafeText<64> probing_problem;
  SignalSafeText<256> probing_for;
  // Set while the plugin is given a device range at opaque + offset (in_flight::InteriorPointer):
  // a bad address inside is the interior-pointer defect, whatever the call.
  std::atomic<bool> interior_pointer{false};
  CrashRecord crash;
  // The status the plugin passed to exit() (std::exit, or returning from a thread's start
  // routine does not count); kNoExitCall when nobody called exit(). Tells "called exit(3)"
  // apart from _exit(3) and exit_group, which leave no trace.
  std::atomic<int> exit_call_status{kNoExitCall};
  // The unit's child, as it sees itself; processes the plugin forks share the handlers.
  std::atomic<int> child_pid{0};

  // Cheap enough to run before every fork: the frame array is only read up to the counters.
  void Reset() noexcept {
    check.Clear();
    call.Clear();
    unwound_call.Clear();
    off_path.Clear();
    waiting_call.Clear();
    waiting_problem.Clear();
    waiting_for.Clear();
    probing_call.Clear();
    probing_problem.Clear();
    probing_for.Clear();
    interior_pointer.store(false);
    crash.claimed.store(0);
    crash.code = 0;
    crash.fault_address = 0;
    crash.first_frame_is_fault_pc = false;
    crash.signal.store(0);
    crash.frame_count.store(0);
    crash.resolved_count.store(0);
    crash.refused_syscall = -1;
    exit_call_status.store(kNoExitCall);
    child_pid.store(0);
  }
};

// The state in_flight writes to. Defaults to a process-local instance; a child attaches its
// shared slot right after fork().
ChildState& AttachedState() noexcept;
void Attach(ChildState* state) noexcept;  // nullptr: back to the process-local instance

}  // namespace conformance::isolate
