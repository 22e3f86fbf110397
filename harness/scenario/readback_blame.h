#pragma once
// Blame the callback that is wrong, not the step that noticed. A read-back (or verify) that
// differs from the model is localised once every step has stopped: after everything is
// synchronised the bytes are looked at again (right now: they were late, and the call that
// should have guaranteed them returned early); still wrong, each copy and fill callback is
// checked on its own through known-good copy paths (runtime/copy_legs.h), and failing that the
// device range itself is read through them (right there: the read-back's own copy was wrong).
// The blame carries details failing_call and problem, the same pair the C++ checks use.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/backend.h"
#include "scenario/buffer_model.h"

namespace conformance::scenario {

// A comparison that failed, with what is needed to look at it again.
struct Suspect {
  const uint8_t* host = nullptr;  // where the bytes landed; still owned by the executor
  ExpectedBytes expected;
  int device = 0;                  // whose callbacks are checked
  std::string observer;            // the call that should have made the bytes visible; "" unknown
  std::optional<BufferAt> source;  // the device range read back (read-backs only)
  std::string reader;              // the read-back's own call: "memcpy_dtoh", "sync_memcpy_dtoh"
  // What should have ordered the source's writer before this read: a synchronous write
  // ("sync_memcpy_dtod"), the reading stream's wait on another ("wait_for_event"), or
  // "record_event" when the event it waited for read COMPLETE right after recording; "" none.
  std::string ordered_by;
  // The call that last wrote the source ("sync_memcpy_htod"); "" unknown.
  std::string writer;
};

struct Blame {
  std::string lead;  // put before the observation: who is wrong ("" when nobody is named)
  std::string tail;  // put after it: what the second look showed
  std::map<std::string, std::string> details;  // failing_call, problem (when named)
};

// The caller has settled the device (Backend::Settle) first, so every queued copy has landed.
// `writes`: the fills and device copies into the suspect's source, in order; when every leg is
// right on its own, each is done again with its own arguments (Backend::ReplayWrite).
Blame LocaliseReadback(Backend& backend, const Suspect& suspect, uint64_t seed,
                       const std::vector<WriteCall>& writes = {});

}  // namespace conformance::scenario
