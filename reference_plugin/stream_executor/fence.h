#pragma once
// Fence: a one-shot "the stream got this far" signal.
//
// A stream worker signals a fence when it reaches the point where the fence was queued; any
// number of threads (the host, or other streams' workers) can wait for it or poll it. Events,
// stream dependencies, block_host_until_done and synchronize_all_activity are all built on
// fences. A fence is shared (shared_ptr) so it outlives whichever side lets go first, e.g. an
// event destroyed while its record is still in flight.
#include <condition_variable>
#include <mutex>
#include <optional>

#include "stream_executor/status.h"

namespace reference_plugin {

class Fence {
 public:
  // Marks the point as reached. `stream_status` is the stream's status at that moment: an
  // error means the work before the fence did not (all) happen.
  void signal(Status stream_status);

  // Blocks until signalled, then returns the stream status given to signal().
  Status wait() const;

  // The signalled status, or nullopt while the stream has not reached the fence yet.
  std::optional<Status> poll() const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable signalled_;
  std::optional<Status> result_;
};

}  // namespace reference_plugin
