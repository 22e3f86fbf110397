#include "isolate/unit_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "isolate/captured_output.h"
#include "isolate/fatal_log_line.h"
#include "isolate/child_state.h"
#include "isolate/crash_handler.h"
#include "isolate/descendants.h"
#include "isolate/harness_guard.h"
#include "isolate/in_flight.h"
#include "isolate/result_channel.h"
#include "isolate/signal_names.h"
#include "isolate/symbolizer.h"
#include "isolate/unit_results.h"
#include "isolate/unit_token.h"

namespace conformance {
namespace {

using Clock = std::chrono::steady_clock;
using isolate::AbnormalEnd;
using isolate::ChildState;

// How long a child may take to die after SIGKILL. Only a process stuck in the kernel (a
// device driver waiting on hardware) takes longer; the parent then stops waiting for it.
constexpr auto kKillGrace = std::chrono::seconds(2);
// Without pidfds the parent cannot sleep until a child exits; it checks this often instead.
constexpr auto kExitPollInterval = std::chrono::milliseconds(5);

[[noreturn]] void ThrowErrno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

double SecondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Children that outlived SIGKILL and the grace period; reaped whenever RunUnits gets the
// chance so they do not stay zombies once they finally die.
std::vector<pid_t>& Unreaped() {
  static std::vector<pid_t> pids;
  return pids;
}

void ReapStragglers() {
  std::erase_if(Unreaped(), [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
}

// One ChildState per concurrent child, in memory the children share with the parent.
class SharedSlots {
 public:
  explicit SharedSlots(std::size_t count) : count_(count) {
    bytes_ = count * sizeof(ChildState);
    void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) ThrowErrno("mmap of the shared child state");
    slots_ = static_cast<ChildState*>(memory);
    for (std::size_t i = 0; i < count; ++i) {
      new (&slots_[i]) ChildState();
      free_.push_back(&slots_[i]);
    }
  }
  ~SharedSlots() {
    for (std::size_t i = 0; i < count_; ++i) slots_[i].~ChildState();
    munmap(slots_, bytes_);
  }
  SharedSlots(const SharedSlots&) = delete;
  SharedSlots& operator=(const SharedSlots&) = delete;

  ChildState* Acquire() {
    ChildState* slot = free_.back();
    free_.pop_back();
    return slot;
  }
  void Release(ChildState* slot) { free_.push_back(slot); }

 private:
  std::size_t count_;
  std::size_t bytes_ = 0;
  ChildState* slots_ = nullptr;
  std::vector<ChildState*> free_;
};

struct Child {
  std::size_t unit_index = 0;
  pid_t pid = -1;
  int pipe_fd = -1;    // read end of the result stream; closed at end of stream
  int output_fd = -1;  // read end of the child's stdout and stderr; closed at end of stream
  int pid_fd = -1;     // readable once the child exits; -1 where pidfds are unavailable
  ChildState* state = nullptr;
  Clock::time_point start;
  Clock::time_point deadline;
  Clock::time_point end;
  bool exited = false;  // reaped
  bool status_known = true;
  int status = 0;
  bool timed_out = false;  // killed at the deadline
  Clock::time_point kill_deadline;
  bool abandoned = false;  // survived SIGKILL past the grace period
  isolate::ResultStreamDecoder decoder;
  isolate::CapturedOutput output;
  isolate::HarnessIdentity harness;

  explicit Child(std::string token) : decoder(std::move(token)) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Reached with a live child only when RunUnits unwinds (e.g. on_done threw).
  ~Child() {
    if (pid > 0 && !exited) {
      KillGroup();
      if (waitpid(pid, nullptr, WNOHANG) == 0) Unreaped().push_back(pid);
    }
    if (pipe_fd >= 0) close(pipe_fd);
    if (output_fd >= 0) close(output_fd);
    if (pid_fd >= 0) close(pid_fd);
  }

  void KillGroup() const {
    killpg(pid, SIGKILL);
    kill(pid, SIGKILL);  // in case neither setpgid() took effect
  }

  Clock::time_point NextDeadline() const { return timed_out ? kill_deadline : deadline; }

  // Reads whatever the pipes hold without blocking. Neither is waited on for its end: a
  // process the plugin spawned may hold them open long after the unit's child is gone.
  void Drain() {
    DrainInto(pipe_fd, [this](std::string_view bytes) { decoder.Feed(bytes); });
    DrainInto(output_fd, [this](std::string_view bytes) { output.Append(bytes); });
  }

  template <typename Consume>
  static void DrainInto(int& fd, const Consume& consume) {
    char buffer[64 * 1024];
    while (fd >= 0) {
      const ssize_t got = read(fd, buffer, sizeof(buffer));
      if (got > 0) {
        consume(std::string_view(buffer, static_cast<std::size_t>(got)));
      } else if (got == 0) {
        close(fd);
        fd = -1;
      } else if (errno == EINTR) {
        continue;
      } else {
        return;  // EAGAIN: nothing more for now
      }
    }
  }

  // Looks without reaping first, so the process group still exists while anything the unit
  // spawned is killed; then reaps.
  void CheckExited() {
    if (exited) return;
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      // ECHILD: someone set SIGCHLD to SIG_IGN, so the kernel reaped it and kept no status.
      if (errno == ECHILD) {
        exited = true;
        status_known = false;
        end = Clock::now();
      }
      return;
    }
    if (info.si_pid != pid) return;
    killpg(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    exited = true;
    end = Clock::now();
  }
};

constexpr int kUncaughtExceptionStatus = 126;

void ExitWithoutHarnessTeardown(int status, void*) {
  // Only the unit's child itself: a process the plugin forked inherits this handler.
  if (getpid() == isolate::AttachedState().child_pid.load()) {
    isolate::AttachedState().exit_call_status.store(status);
  }
  std::fflush(nullptr);  // what the plugin printed, which exit() would have flushed
  _exit(status);
}

// The result stream's write end, moved to a random descriptor in the upper half of the
// process's range: a plugin that writes to low descriptors (3-20) or guesses does not reach
// it. A plugin that lists /proc/self/fd does, and still cannot forge a record without the
// unit's token (see README.md, threat model).
int MoveToUnguessableFd(int fd) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return fd;
  constexpr rlim_t kHighest = 1 << 20;
  const rlim_t top =
      limit.rlim_cur == RLIM_INFINITY ? kHighest : std::min(limit.rlim_cur, kHighest);
  if (top < 256) return fd;
  const rlim_t low = top / 2;
  for (int attempt = 0; attempt < 32; ++attempt) {
    std::uint32_t random = 0;
    if (getrandom(&random, sizeof(random), 0) != sizeof(random)) break;
    const int candidate = static_cast<int>(low + random % (top - low));
    if (fcntl(candidate, F_GETFD) != -1 || errno != EBADF) continue;  // in use
    if (dup3(fd, candidate, O_CLOEXEC) == candidate) {
      close(fd);
      return candidate;
    }
  }
  return fd;
}

// The child's stdout and stderr go to the parent, which attaches them to the unit's results.
void CaptureOutput(int output_fd) {
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (output_fd > STDERR_FILENO) close(output_fd);
  // Line-buffered like a terminal, so what a crashing plugin printed last is not lost in a
  // full buffer.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
}

void KeepCoreDumpsOut() {
  // A core per deliberately crashing plugin would cost seconds each under systemd-coredump or
  // apport (and far more for sanitizer builds). A limit of 1 byte, unlike 0, also stops
  // core_pattern pipes. --no-isolation is the way to debug a crash.
  rlimit limit{};
  if (getrlimit(RLIMIT_CORE, &limit) == 0) {
    limit.rlim_cur = std::min<rlim_t>(1, limit.rlim_max);
    setrlimit(RLIMIT_CORE, &limit);
  }
}

struct ChildPipes {
  int results = -1;  // write end of the result stream
  int output = -1;   // write end for stdout and stderr
};

[[noreturn]] void RunChild(const TestUnit& unit, const RunSettings& settings, ChildState* state,
                           ChildPipes pipes, const std::string& token,
                           const isolate::HarnessIdentity& harness,
                           const std::vector<std::unique_ptr<Child>>& siblings) {
  // Own group: a timeout kill reaches everything the plugin spawned.
  setpgid(0, 0);
  // Children are out of the terminal's process group, so a Ctrl-C of the harness would not
  // reach them: tie their life to the parent's instead.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != harness.pid) _exit(124);
  for (const auto& sibling : siblings) {
    if (sibling->pipe_fd >= 0) close(sibling->pipe_fd);
    if (sibling->output_fd >= 0) close(sibling->output_fd);
    if (sibling->pid_fd >= 0) close(sibling->pid_fd);
  }
  state->child_pid.store(getpid());
  isolate::Attach(state);
  const int result_fd = MoveToUnguessableFd(pipes.results);
  CaptureOutput(pipes.output);
  KeepCoreDumpsOut();
  isolate::InstallCrashHandlers(&state->crash);
  // Orphans of whatever the plugin spawns stay below this process while it lives, and fall
  // to the harness (also a subreaper) afterwards, which kills them (descendants.h).
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  isolate::GuardHarness(harness);

  // The child is a copy of the harness: if the plugin calls exit(), the harness's atexit
  // handlers and static destructors (reporters with buffered files, temporary folders) must
  // not run a second time here. Registered last, this runs first and keeps the status.
  on_exit(ExitWithoutHarnessTeardown, nullptr);

  isolate::PipeResultSink sink(result_fd, token);
  UnitContext context{settings, sink};
  // Nothing may unwind past this point: the frames above belong to the parent's copy of the
  // caller, which would carry on running (e.g. the rest of a test suite) in the child.
  try {
    if (unit.run) unit.run(context);
  } catch (...) {
    sink.WriteUncaughtException(isolate::DescribeCurrentException());
    std::fflush(nullptr);
    _exit(kUncaughtExceptionStatus);
  }
  // _exit() skips stdio's flush; what the plugin printed must still reach the console.
  std::fflush(nullptr);
  sink.WriteEndOfUnit();
  _exit(0);
}

std::unique_ptr<Child> StartChild(std::size_t unit_index, const TestUnit& unit,
                                  const RunSettings& settings, const IsolationOptions& options,
                                  ChildState* state,
                                  const std::vector<std::unique_ptr<Child>>& running) {
  const std::string token = isolate::NewUnitToken();
  auto child = std::make_unique<Child>(token);
  child->unit_index = unit_index;
  child->state = state;
  state->Reset();

  int results[2];
  int output[2];
  if (pipe2(results, O_CLOEXEC) != 0) ThrowErrno("pipe2");
  if (pipe2(output, O_CLOEXEC) != 0) {
    const int error = errno;
    close(results[0]);
    close(results[1]);
    errno = error;
    ThrowErrno("pipe2");
  }
  const auto close_all = [&] {
    for (int fd : {results[0], results[1], output[0], output[1]}) close(fd);
  };
  // The child flushes stdio when it ends; anything still buffered here would be written twice.
  std::fflush(nullptr);
  const isolate::HarnessIdentity harness{getpid(), getpgrp()};
  child->start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    close_all();
    errno = error;
    ThrowErrno("fork");
  }
  if (pid == 0) {
    close(results[0]);
    close(output[0]);
    RunChild(unit, settings, state, ChildPipes{results[1], output[1]}, token, harness, running);
  }
  close(results[1]);
  close(output[1]);
  child->pid = pid;
  child->harness = harness;
  child->pipe_fd = results[0];
  child->output_fd = output[0];
  fcntl(child->output_fd, F_SETFL, fcntl(child->output_fd, F_GETFL) | O_NONBLOCK);
  child->deadline = child->start + options.timeout;
  // Both sides set the group: whichever runs first, a kill right after fork() hits the group.
  setpgid(pid, pid);
  fcntl(child->pipe_fd, F_SETFL, fcntl(child->pipe_fd, F_GETFL) | O_NONBLOCK);
  const long pid_fd = syscall(SYS_pidfd_open, pid, 0);
  child->pid_fd = pid_fd >= 0 ? static_cast<int>(pid_fd) : -1;
  return child;
}

std::string Hex(std::uintptr_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%jx", static_cast<std::uintmax_t>(value));
  return text;
}

// What the crash handler left in the shared record, symbolized.
void DescribeRecordedCrash(const isolate::CrashRecord& crash, int signal_number,
                           const isolate::HarnessIdentity& harness, AbnormalEnd& end) {
  end.signal = isolate::SignalName(signal_number);
  end.summary = end.signal + " (" + isolate::SignalDescription(signal_number) + ")";
  if (signal_number == SIGSYS && crash.refused_syscall >= 0) {
    end.summary = isolate::DescribeRefusedCall(crash.refused_syscall, crash.refused_args, harness);
    end.details["problem"] = isolate::RefusedCallProblem(crash.refused_syscall);
  }
  const int frame_count =
      std::clamp(crash.frame_count.load(), 0, static_cast<int>(isolate::kMaxCrashFrames));
  const int resolved = std::clamp(crash.resolved_count.load(), 0, frame_count);
  std::vector<isolate::RawFrame> frames(static_cast<std::size_t>(frame_count));
  for (int i = 0; i < frame_count; ++i) {
    frames[i].pc = crash.frames[i].pc;
    if (i < resolved) {
      frames[i].module_base = crash.frames[i].module_base;
      frames[i].module.assign(crash.frames[i].module,
                              strnlen(crash.frames[i].module, isolate::kModulePathSize));
    }
  }
  end.backtrace = isolate::Symbolize(frames, crash.first_frame_is_fault_pc);
  if (signal_number == SIGSEGV || signal_number == SIGBUS || signal_number == SIGILL ||
      signal_number == SIGFPE) {
    end.details["fault_address"] = Hex(crash.fault_address);
  }
}

// An abort after a fatal log line (TensorFlow's LOG(FATAL) layout, which the mock core's fatal
// paths print too: LogMessageFatal, TF_Log(TF_FATAL)): the plugin's fatal error, with its words.
void NameFatalLog(const std::string& output, AbnormalEnd& end) {
  const auto fatal = isolate::LastFatalLogLine(output);
  if (!fatal) return;
  end.summary += ": fatal error logged at " + fatal->where + ": " + fatal->message;
  end.details["fatal_log"] = fatal->where + "] " + fatal->message;
  end.details["problem"] = "fatal error logged";
}

// One failure for everything unreadable in the stream: a forging plugin writes many lines,
// all one root cause.
CheckResult CorruptStreamResult(const TestUnit& unit, const isolate::ResultStreamDecoder& decoder) {
  const std::vector<std::string>& errors = decoder.errors();
  CheckResult corrupt;
  corrupt.id = unit.name;
  corrupt.outcome = Outcome::kFail;
  corrupt.message = errors.size() == 1
                        ? "unreadable record in the unit's result stream: " + errors.front()
                        : std::to_string(errors.size()) +
                              " unreadable records in the unit's "
                              "result stream; the first: " +
                              errors.front();
  if (decoder.forged_count() > 0) {
    corrupt.message = std::to_string(decoder.forged_count()) +
                      " records in the unit's result stream were not written by the harness (no "
                      "token, or the wrong one): something in the unit's process, such as the "
                      "plugin, wrote to descriptors it does not own. " +
                      corrupt.message;
  }
  corrupt.details["problem"] = "corrupt or forged result stream";
  corrupt.details["unreadable_records"] = std::to_string(errors.size());
  return corrupt;
}

// An exit the harness did not make, in words: "the plugin called exit(125) during
// SE_InitPlugin". exit() is told apart from _exit()/exit_group by the on_exit hook.
void DescribeExit(int status, int exit_call_status, bool finished, AbnormalEnd& end) {
  const std::string code = std::to_string(status);
  end.signal = "exit(" + code + ")";
  const bool called_exit = exit_call_status != isolate::kNoExitCall;
  // Without the on_exit trace it was _exit(), exit_group, or exit() from code that skipped
  // the handlers; all look alike from here.
  const std::string how = (called_exit ? "called exit(" : "called _exit(") + code + ")";
  end.details["problem"] = called_exit ? "called exit()" : "called _exit()";
  if (!end.call.empty()) {
    end.summary = "the plugin " + how + " during " + end.call;
    end.summary_names_call = true;
  } else if (finished) {
    end.summary = "the unit's process " + how;  // CompleteUnitResults adds "after the unit..."
  } else {
    end.summary =
        "the unit's process " + how + " before the unit finished (outside any plugin call)";
  }
  if (!called_exit && status == 0 && !finished) {
    end.details["note"] =
        "a unit ends only through the harness's own end-of-unit path; an exit with status 0 "
        "anywhere else is a crash (results written before it are kept only if they carry the "
        "unit's token)";
  }
}

std::vector<CheckResult> FinishChild(Child& child, const TestUnit& unit,
                                     const IsolationOptions& options) {
  const ChildState& state = *child.state;
  const int recorded_signal = state.crash.signal.load();
  const bool clean_exit =
      child.exited &&
      (!child.status_known || (WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0));
  const bool finished = child.decoder.end_of_unit();

  std::optional<AbnormalEnd> end;
  if (!(finished && clean_exit && !child.timed_out && recorded_signal == 0)) {
    AbnormalEnd& e = end.emplace();
    e.check = state.check.Get();
    e.call = state.call.Get();
    e.off_path = state.off_path.Get();
    e.waiting_call = state.waiting_call.Get();
    e.waiting_problem = state.waiting_problem.Get();
    e.waiting_for = state.waiting_for.Get();
    e.probing_call = state.probing_call.Get();
    e.probing_problem = state.probing_problem.Get();
    e.probing_for = state.probing_for.Get();
    e.interior_pointer = state.interior_pointer.load();
    e.after_unit_finished = finished;
    if (recorded_signal != 0) {
      DescribeRecordedCrash(state.crash, recorded_signal, child.harness, e);
      if (recorded_signal == SIGABRT) NameFatalLog(child.output.Text(), e);
      if (child.timed_out) {
        e.details["note"] = "the crash handler did not finish; killed at the timeout";
      }
    } else if (const auto& exception = child.decoder.uncaught_exception(); exception && !finished) {
      e = isolate::UncaughtExceptionEnd(*exception, std::move(e.check),
                                        e.call.empty() ? state.unwound_call.Get() : e.call);
    } else if (child.timed_out) {
      e.outcome = Outcome::kTimeout;
      e.signal = "timeout";
      e.summary = "timed out after " + std::to_string(options.timeout.count()) + " ms";
      if (child.abandoned) {
        e.details["note"] = "the process did not die after SIGKILL (stuck in the kernel?)";
      }
    } else if (!child.status_known) {
      e.signal = "unknown";
      e.summary = "the process ended (exit status unavailable)";
    } else if (WIFEXITED(child.status)) {
      DescribeExit(WEXITSTATUS(child.status), state.exit_call_status.load(), finished, e);
    } else if (WIFSIGNALED(child.status)) {
      const int signal_number = WTERMSIG(child.status);
      e.signal = isolate::SignalName(signal_number);
      e.summary = e.signal + " (" + isolate::SignalDescription(signal_number) + ")";
      e.details["note"] = signal_number == SIGKILL
                              ? "killed from outside the unit (e.g. by the OOM killer)"
                              : "no crash report: the crash handler could not run (e.g. a stack "
                                "overflow on a thread without an alternate stack)";
    }
  }

  std::vector<CheckResult> results = isolate::CompleteUnitResults(
      unit, std::move(child.decoder.results()), end, SecondsBetween(child.start, child.end));
  if (!child.decoder.errors().empty()) results.push_back(CorruptStreamResult(unit, child.decoder));
  if (!results.empty()) results.front().plugin_output = child.output.Text();
  return results;
}

// Kills what finished units left behind (descendants.h): every child of ours that is not a
// running unit's child.
void SweepOrphans(const std::vector<std::unique_ptr<Child>>& running) {
  std::vector<pid_t> keep;
  keep.reserve(running.size());
  for (const auto& child : running) keep.push_back(child->pid);
  isolate::KillOrphans(keep, Unreaped());
}

class CollectingSink final : public ResultSink {
 public:
  void Emit(CheckResult result) override { results.push_back(std::move(result)); }
  std::vector<CheckResult> results;
};

// A unit that loads nothing (TestUnit::runs_in_parent) runs here, as --no-isolation runs every
// unit: a child of its own would cost a fork of this whole process for a few results.
std::vector<CheckResult> RunInParent(const TestUnit& unit, const RunSettings& settings) {
  CollectingSink sink;
  UnitContext context{settings, sink};
  const Clock::time_point start = Clock::now();
  std::optional<AbnormalEnd> end;
  try {
    if (unit.run) unit.run(context);
  } catch (...) {
    const auto& state = isolate::AttachedState();
    end = isolate::UncaughtExceptionEnd(isolate::DescribeCurrentException(), state.check.Get(),
                                        state.call.Get());
  }
  return isolate::CompleteUnitResults(unit, std::move(sink.results), end,
                                      SecondsBetween(start, Clock::now()));
}

void RunIsolated(const std::vector<TestUnit>& units, const RunSettings& settings,
                 const IsolationOptions& options, std::size_t jobs, const UnitDone& on_done) {
  isolate::PreloadUnwinder();
  const isolate::OrphanAdoption adoption;
  SharedSlots slots(std::min(jobs, units.size()));
  std::vector<std::unique_ptr<Child>> running;
  std::vector<pollfd> poll_fds;
  std::size_t next = 0;

  while (next < units.size() || !running.empty()) {
    while (running.size() < jobs && next < units.size()) {
      if (units[next].runs_in_parent) {
        on_done(next, RunInParent(units[next], settings));
      } else {
        running.push_back(
            StartChild(next, units[next], settings, options, slots.Acquire(), running));
      }
      ++next;
    }
    if (running.empty()) continue;  // every unit left ran in the parent

    poll_fds.clear();
    Clock::time_point wake = Clock::time_point::max();
    const Clock::time_point before = Clock::now();
    for (const auto& child : running) {
      if (child->pipe_fd >= 0) poll_fds.push_back({child->pipe_fd, POLLIN, 0});
      if (child->output_fd >= 0) poll_fds.push_back({child->output_fd, POLLIN, 0});
      if (child->pid_fd >= 0) {
        poll_fds.push_back({child->pid_fd, POLLIN, 0});
      } else {
        wake = std::min(wake, before + kExitPollInterval);
      }
      wake = std::min(wake, child->NextDeadline());
    }
    const auto wait = std::max(Clock::duration::zero(), wake - before);
    const auto wait_s = std::chrono::duration_cast<std::chrono::seconds>(wait);
    const timespec timeout{
        static_cast<time_t>(wait_s.count()),
        static_cast<long>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(wait - wait_s).count())};
    if (ppoll(poll_fds.data(), poll_fds.size(), &timeout, nullptr) < 0 && errno != EINTR) {
      ThrowErrno("ppoll");
    }

    const Clock::time_point now = Clock::now();
    for (std::size_t i = 0; i < running.size();) {
      Child& child = *running[i];
      child.Drain();
      child.CheckExited();
      if (child.exited) {
        child.Drain();  // everything it wrote before dying is in the pipe by now
      } else if (!child.timed_out && now >= child.deadline) {
        child.KillGroup();
        child.timed_out = true;
        child.kill_deadline = now + kKillGrace;
      } else if (child.timed_out && now >= child.kill_deadline) {
        child.abandoned = true;
        child.end = now;
      }
      if (!child.exited && !child.abandoned) {
        ++i;
        continue;
      }
      std::unique_ptr<Child> done = std::move(running[i]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      if (done->abandoned) {
        Unreaped().push_back(done->pid);
        done->exited = true;  // handed over to ReapStragglers; the destructor must not wait
      }
      SweepOrphans(running);
      done->Drain();  // what they wrote to the inherited pipes before they died
      std::vector<CheckResult> results = FinishChild(*done, units[done->unit_index], options);
      slots.Release(done->state);
      const std::size_t unit_index = done->unit_index;
      done.reset();
      on_done(unit_index, std::move(results));
    }
  }
}

// --no-isolation: a plugin calling exit() would end the whole run with its status and no
// report. An on_exit handler registered at the start of each unit (so it runs before anything
// the harness registered earlier) jumps back into the unit loop instead; the unit becomes a
// crash and the run carries on to write its reports. Handlers the plugin registered during
// the unit have run by then (e.g. its static destructors): later units may see a plugin in
// that state, which is the price of debugging in-process. Only exit() on the thread running
// the unit can be caught; from any other thread the run stops with the internal-error code.
struct InProcessExitGuard {
  sigjmp_buf resume;
  volatile sig_atomic_t armed = 0;
  pid_t unit_thread = 0;
  int status = 0;
};

InProcessExitGuard& ExitGuard() {
  static InProcessExitGuard guard;
  return guard;
}

constexpr int kInternalErrorExit = 4;  // ExitCode::kInternalError (harness/run/exit_code.h)

void ResumeRunOnExit(int status, void*) {
  InProcessExitGuard& guard = ExitGuard();
  if (!guard.armed) return;
  guard.armed = 0;
  guard.status = status;
  if (gettid() != guard.unit_thread) {
    std::fprintf(stderr,
                 "plugin_conformance: error: the plugin called exit(%d) on one of its own "
                 "threads during %s; with --no-isolation the run cannot continue and no report "
                 "is written\n",
                 status, isolate::AttachedState().call.Get().c_str());
    std::fflush(nullptr);
    _exit(kInternalErrorExit);
  }
  siglongjmp(guard.resume, 1);
}

void RunInProcess(const std::vector<TestUnit>& units, const RunSettings& settings,
                  const UnitDone& on_done) {
  InProcessExitGuard& guard = ExitGuard();
  for (std::size_t i = 0; i < units.size(); ++i) {
    const TestUnit& unit = units[i];
    // A unit that threw out of a PluginCall scope must not leave its call to the next unit.
    isolate::AttachedState().Reset();
    CollectingSink sink;
    UnitContext context{settings, sink};
    const Clock::time_point start = Clock::now();
    std::optional<AbnormalEnd> end;
    on_exit(ResumeRunOnExit, nullptr);
    guard.unit_thread = gettid();
    if (sigsetjmp(guard.resume, 0) == 0) {
      guard.armed = 1;
      try {
        if (unit.run) unit.run(context);
      } catch (...) {
        // Reported like the isolated runner does, so both modes give the same results.
        const auto& state = isolate::AttachedState();
        end = isolate::UncaughtExceptionEnd(
            isolate::DescribeCurrentException(), state.check.Get(),
            state.call.Empty() ? state.unwound_call.Get() : state.call.Get());
      }
      guard.armed = 0;
    } else {
      // Back from exit(): what the plugin had written to stdio is still buffered.
      std::fflush(nullptr);
      const auto& state = isolate::AttachedState();
      AbnormalEnd& e = end.emplace();
      e.check = state.check.Get();
      e.call = state.call.Get();
      e.off_path = state.off_path.Get();
      e.probing_call = state.probing_call.Get();
      e.probing_problem = state.probing_problem.Get();
      e.probing_for = state.probing_for.Get();
      e.interior_pointer = state.interior_pointer.load();
      DescribeExit(guard.status, guard.status, /*finished=*/false, e);
    }
    const double seconds = SecondsBetween(start, Clock::now());
    in_flight::EndCheck();
    on_done(i, isolate::CompleteUnitResults(unit, std::move(sink.results), end, seconds));
  }
}

}  // namespace

void RunUnits(const std::vector<TestUnit>& units, const RunSettings& settings,
              const IsolationOptions& options, int jobs, const UnitDone& on_done) {
  ReapStragglers();
  if (units.empty()) return;
  if (!options.isolate) {
    RunInProcess(units, settings, on_done);
    return;
  }
  RunIsolated(units, settings, options, static_cast<std::size_t>(std::max(jobs, 1)), on_done);
  ReapStragglers();
}

}  // namespace conformance
