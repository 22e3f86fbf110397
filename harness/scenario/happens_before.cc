#include "scenario/happens_before.h"

#include <algorithm>

namespace conformance::scenario {

uint64_t VectorClock::Get(int timeline) const {
  const auto index = static_cast<std::size_t>(timeline);
  return index < counts_.size() ? counts_[index] : 0;
}

void VectorClock::Tick(int timeline) {
  const auto index = static_cast<std::size_t>(timeline);
  if (index >= counts_.size()) counts_.resize(index + 1, 0);
  ++counts_[index];
}

void VectorClock::Join(const VectorClock& other) {
  if (other.counts_.size() > counts_.size()) counts_.resize(other.counts_.size(), 0);
  for (std::size_t i = 0; i < other.counts_.size(); ++i)
    counts_[i] = std::max(counts_[i], other.counts_[i]);
}

std::optional<Access> AccessLog::Conflict(const Access& access, const VectorClock& now) const {
  for (const Access& earlier : accesses_) {
    if (!access.write && !earlier.write) continue;
    if (earlier.end <= access.begin || access.end <= earlier.begin) continue;
    if (earlier.timeline == access.timeline) continue;  // one timeline is ordered by itself
    if (now.Covers(earlier.timeline, earlier.epoch)) continue;
    return earlier;
  }
  return std::nullopt;
}

void AccessLog::Record(Access access) {
  // An earlier access on the same timeline, inside the new one's range and no more of a write
  // than it, conflicts with a later access only if the new one does too (its epoch is newer,
  // so no clock can cover the new one without covering the earlier). Dropping it keeps the log
  // at one entry per (timeline, range) however often a repeat touches the same bytes, which is
  // what keeps validation linear.
  std::erase_if(accesses_, [&](const Access& earlier) {
    return earlier.timeline == access.timeline && earlier.begin >= access.begin &&
           earlier.end <= access.end && (access.write || !earlier.write);
  });
  accesses_.push_back(std::move(access));
}

}  // namespace conformance::scenario
