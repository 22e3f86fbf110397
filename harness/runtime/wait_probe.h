#pragma once
// Does a host wait really wait? Checked on its own, to localise a failure nothing else
// explains: a scenario whose bytes or event state are still wrong once everything settled,
// and whose copies and fills are each right on their own, ran steps against work an earlier
// wait should have finished. Each wait is called behind a stream held at a host callback
// (stream_gate.h, released only once the calling thread sleeps in the wait); one that returns
// while the hold is still closed is early, with the (failing_call, problem) pair the C++ check
// of that wait uses, so the run layer reports one root cause.
#include <optional>
#include <set>
#include <string>

#include "runtime/copy_legs.h"
#include "runtime/device.h"

namespace conformance::runtime {

// The first of `waits` ("block_host_until_done", "block_host_for_event",
// "synchronize_all_activity"; others are ignored) that returns before the work queued before
// it ran. nullopt when each waits, or when nothing can hold a stream (host_callback failed or
// runs callbacks inline): then no wait can be judged on its own.
std::optional<LegFault> FindEarlyWait(Device& device, const std::set<std::string>& waits);

}  // namespace conformance::runtime
