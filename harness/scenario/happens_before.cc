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
  for (std::size_t i = 0; i < other.counts_.size(); ++i) counts_[i] = std::max(counts_[i], other.counts_[i]);
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
  // An earlier access on the same timeline wholly covered by a new write can never conflict
  // with anything the new one does not conflict with: drop it, so repeats stay cheap.
  if (access.write) {
    std::erase_if(accesses_, [&](const Access& earlier) {
      return earlier.timeline == access.timeline && earlier.begin >= access.begin && earlier.end <= access.end;
    });
  }
  accesses_.push_back(std::move(access));
}

}  // namespace conformance::scenario
