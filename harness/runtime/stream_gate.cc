#include "runtime/stream_gate.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>

namespace conformance::runtime {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(1);

}  // namespace

bool ThreadIsWaiting(pid_t tid) {
  // Plain read(2), no iostream: a thread that exits between open and read makes the read fail
  // (ESRCH), which libstdc++'s filebuf turns into an exception, here on a stream's worker thread.
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[512];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  if (got <= 0) return false;
  const std::string text(buffer, static_cast<std::size_t>(got));
  // "tid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return false;
  const char state = text[close + 2];
  return state == 'S' || state == 'D';
}

StreamGate::StreamGate(std::chrono::milliseconds waiting_streak, std::chrono::milliseconds limit)
    : check_thread_(gettid()), waiting_streak_(waiting_streak), limit_(limit) {}

void StreamGate::Hold() { HoldFor(gettid()); }

void StreamGate::HoldFor(pid_t worker) {
  std::unique_lock lock(mutex_);
  if (worker == check_thread_) {
    release_ = Release::kInline;
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  // The check's thread is sampled every kPoll; once a whole window of `waiting_streak_` found it
  // asleep in most samples (a thread that polls an event sleeps between polls), it is waiting
  // for the stream. A thread the scheduler merely keeps off the CPU reads as runnable, so a
  // loaded machine does not release the gate.
  auto window_start = start;
  // Per watched thread (the check's first): samples found asleep in this window.
  std::vector<int> asleep;
  int samples = 0;
  while (!opened_) {
    const auto now = std::chrono::steady_clock::now();
    if (now - start >= limit_) {
      release_ = Release::kLimit;
      return;
    }
    ++samples;
    asleep.resize(1 + also_watched_.size());
    for (std::size_t i = 0; i < asleep.size(); ++i) {
      if (ThreadIsWaiting(i == 0 ? check_thread_ : also_watched_[i - 1])) ++asleep[i];
    }
    if (now - window_start >= waiting_streak_) {
      for (const int count : asleep) {
        if (count * 10 >= samples * 8) {
          release_ = Release::kCheckThreadWaiting;
          return;
        }
      }
      window_start = now;
      samples = 0;
      std::fill(asleep.begin(), asleep.end(), 0);
    }
    opened_cv_.wait_for(lock, kPoll);
  }
  release_ = Release::kOpened;
}

void StreamGate::Watch(pid_t tid) {
  std::lock_guard lock(mutex_);
  also_watched_.push_back(tid);
}

void StreamGate::Open() {
  std::lock_guard lock(mutex_);
  opened_ = true;
  opened_cv_.notify_all();
}

StreamGate::Release StreamGate::release() const {
  std::lock_guard lock(mutex_);
  return release_;
}

std::string ReleaseName(StreamGate::Release release) {
  switch (release) {
    case StreamGate::Release::kNotHeld: return "not held";
    case StreamGate::Release::kOpened: return "compute returned";
    case StreamGate::Release::kCheckThreadWaiting:
      return "the check's thread waited on the held stream";
    case StreamGate::Release::kLimit: return "limit";
    case StreamGate::Release::kInline: return "inline: host_callback ran on the caller's thread";
  }
  return "unknown";
}

}  // namespace conformance::runtime
