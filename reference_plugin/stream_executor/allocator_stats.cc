#include "stream_executor/allocator_stats.h"

#include <algorithm>

namespace reference_plugin {

AllocatorStatistics::AllocatorStatistics(uint64_t bytes_limit) : bytes_limit_(bytes_limit) {}

void AllocatorStatistics::record_allocation(uint64_t bytes) {
  ++num_allocs_;
  bytes_in_use_ += bytes;
  peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use_);
  largest_alloc_size_ = std::max(largest_alloc_size_, bytes);
}

void AllocatorStatistics::record_deallocation(uint64_t bytes) { bytes_in_use_ -= bytes; }

AllocatorStatsSnapshot AllocatorStatistics::snapshot(uint64_t largest_free_block_bytes) const {
  AllocatorStatsSnapshot snapshot;
  snapshot.num_allocs = static_cast<int64_t>(num_allocs_);
  snapshot.bytes_in_use = static_cast<int64_t>(bytes_in_use_);
  snapshot.peak_bytes_in_use = static_cast<int64_t>(peak_bytes_in_use_);
  snapshot.largest_alloc_size = static_cast<int64_t>(largest_alloc_size_);
  snapshot.bytes_limit = static_cast<int64_t>(bytes_limit_);
  snapshot.largest_free_block_bytes = static_cast<int64_t>(largest_free_block_bytes);
  return snapshot;
}

void fill_sp_allocator_stats(const AllocatorStatsSnapshot& snapshot, SP_AllocatorStats* stats) {
  *stats = SP_AllocatorStats{};
  stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  stats->num_allocs = snapshot.num_allocs;
  stats->bytes_in_use = snapshot.bytes_in_use;
  stats->peak_bytes_in_use = snapshot.peak_bytes_in_use;
  stats->largest_alloc_size = snapshot.largest_alloc_size;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = snapshot.bytes_limit;
  stats->largest_free_block_bytes = snapshot.largest_free_block_bytes;
}

}  // namespace reference_plugin
