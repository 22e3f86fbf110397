#pragma once
// Allocator statistics of one device arena.
//
// All numbers count what the arena really hands out, i.e. sizes rounded up to the
// allocation granule, so that the statistics and device_memory_usage can never disagree:
//     free  == bytes_limit - bytes_in_use
//     total == bytes_limit
// A snapshot is taken under the arena's lock, so each report is one consistent moment.
#include <cstdint>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

struct AllocatorStatsSnapshot {
  int64_t num_allocs = 0;  // successful allocations since the device was created
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t largest_alloc_size = 0;  // largest single allocation ever made
  int64_t bytes_limit = 0;         // the device's memory capacity
  int64_t largest_free_block_bytes = 0;
};

// The running counters. Not thread-safe by itself: the arena updates it under its lock.
class AllocatorStatistics {
 public:
  explicit AllocatorStatistics(uint64_t bytes_limit);

  void record_allocation(uint64_t bytes);
  void record_deallocation(uint64_t bytes);

  uint64_t bytes_in_use() const { return bytes_in_use_; }
  AllocatorStatsSnapshot snapshot(uint64_t largest_free_block_bytes) const;

 private:
  uint64_t bytes_limit_;
  uint64_t num_allocs_ = 0;
  uint64_t bytes_in_use_ = 0;
  uint64_t peak_bytes_in_use_ = 0;
  uint64_t largest_alloc_size_ = 0;
};

// Fills TensorFlow's struct. bytes_reserved / reservable limits stay 0: they describe pools
// that a caching allocator reserves from the device, and this arena has no such layer.
void fill_sp_allocator_stats(const AllocatorStatsSnapshot& snapshot, SP_AllocatorStats* stats);

}  // namespace reference_plugin
