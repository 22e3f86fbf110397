#pragma once
// Ordering in a scenario, as vector clocks: the host threads and the streams are timelines;
// enqueueing, dependencies, event waits and host synchronizations carry knowledge from one
// timeline to another. Two accesses to the same bytes, at least one a write, must be ordered;
// otherwise the bytes a read-back sees depend on timing, and the model could not predict them.
// The validator rejects such scenarios, which is what makes "compare with the model" exact.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conformance::scenario {

class VectorClock {
 public:
  uint64_t Get(int timeline) const;
  void Tick(int timeline);
  void Join(const VectorClock& other);
  // True when everything `timeline` did up to `epoch` is known to this clock.
  bool Covers(int timeline, uint64_t epoch) const { return Get(timeline) >= epoch; }

 private:
  std::vector<uint64_t> counts_;
};

struct Access {
  uint64_t begin = 0, end = 0;  // byte range [begin, end)
  bool write = false;
  int timeline = 0;
  uint64_t epoch = 0;  // the timeline's count at the access
  std::string what;    // "step 4 (line 12) on stream s1", for messages
};

// Accesses of one buffer. Reports the first earlier access that conflicts with a new one.
class AccessLog {
 public:
  std::optional<Access> Conflict(const Access& access, const VectorClock& now) const;
  void Record(Access access);

 private:
  std::vector<Access> accesses_;
};

}  // namespace conformance::scenario
