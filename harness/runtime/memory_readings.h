#pragma once
// get_allocator_stats and device_memory_usage, read with poisoned out-params. Fields the
// plugin left alone read as TensorFlow would see them (0: TensorFlow zero-fills), and the
// `*_written` flags say which ones the plugin actually wrote.
#include <cstdint>

namespace conformance::runtime {

struct AllocatorStatsReading {
  bool returned_true = false;  // false: TensorFlow reports "no stats" (not an error)
  std::uint64_t struct_size = 0;
  std::int64_t num_allocs = 0, bytes_in_use = 0, peak_bytes_in_use = 0, largest_alloc_size = 0;
  bool has_bytes_limit = false;
  std::int64_t bytes_limit = 0, bytes_reserved = 0, peak_bytes_reserved = 0;
  bool has_bytes_reservable_limit = false;
  std::int64_t bytes_reservable_limit = 0, largest_free_block_bytes = 0;

  bool num_allocs_written = false, bytes_in_use_written = false, peak_bytes_in_use_written = false,
       largest_alloc_size_written = false, has_bytes_limit_written = false,
       bytes_limit_written = false;
};

struct MemoryUsageReading {
  bool returned_true = false;
  std::int64_t free = 0, total = 0;
  bool free_written = false, total_written = false;
};

}  // namespace conformance::runtime
