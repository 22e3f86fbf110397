#pragma once
// Holds a plugin's stream at a host callback for exactly as long as a check needs: until the
// check opens it, or until the thread that made the gate can make no progress without the
// stream (it slept through a window of `waiting_streak`: it waits for the held work, in
// block_host_until_done, a copy that blocks on the stream, a kernel that synchronises), or
// until a safety limit. The check's thread decides, so the hold does not depend on how fast
// the machine is. It never holds on the check's own thread: a synchronous device runs the
// callback inline there (holding would only stall the harness), and a lazy one runs queued
// callbacks in whoever synchronises.
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace conformance::runtime {

class StreamGate {
 public:
  // Made on the check's thread; `limit` bounds any hold.
  StreamGate(std::chrono::milliseconds waiting_streak, std::chrono::milliseconds limit);
  // Watches thread `tid` too (a second thread computing while the stream is held): the hold
  // also ends once it has slept through a window. A watched thread that has exited never
  // counts as waiting.
  void Watch(pid_t tid);
  // The body of the host callback: returns when the stream should go on.
  void Hold();
  // The same for work the plugin runs on thread `worker` (a copy hold's faulting thread,
  // runtime/copy_hold.h), decided from another thread.
  void HoldFor(pid_t worker);
  // Compute returned: release the stream now.
  void Open();

  // How the last hold ended (for tests and messages).
  enum class Release { kNotHeld, kOpened, kCheckThreadWaiting, kLimit, kInline };
  Release release() const;

 private:
  const pid_t check_thread_;
  std::vector<pid_t> also_watched_;  // guarded by mutex_
  const std::chrono::milliseconds waiting_streak_;
  const std::chrono::milliseconds limit_;
  mutable std::mutex mutex_;
  std::condition_variable opened_cv_;
  bool opened_ = false;
  Release release_ = Release::kNotHeld;
};

// How a hold ended, as reports say it ("compute returned", "limit", "inline: ...", ...).
std::string ReleaseName(StreamGate::Release release);

// True when thread `tid` of this process is asleep (waiting) rather than running or runnable.
bool ThreadIsWaiting(pid_t tid);

}  // namespace conformance::runtime
