#pragma once
// DeviceMemoryArena: the private memory of one simulated device.
//
// The whole capacity is reserved up front as one range of address space
// (mmap with MAP_NORESERVE), but nothing is committed: the kernel backs a page with real
// memory only when something first writes it. So a 1 GiB device costs nothing until it is
// used, and TensorFlow's habit of grabbing most of the device in one allocation is cheap.
// Large freed blocks are handed back to the kernel (MADV_DONTNEED).
//
// Allocation is best fit over a free list, with neighbouring free blocks merged on free.
// Every allocation starts on a 256-byte boundary and occupies a whole number of 256-byte
// granules; the statistics count those granules (see allocator_stats.h).
//
// Because the arena is ordinary host memory, device addresses are real pointers: the
// simulated device "executes" copies and fills with memcpy/memset on a stream's worker thread.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "stream_executor/allocator_stats.h"
#include "stream_executor/status.h"

namespace reference_plugin {

class DeviceMemoryArena {
 public:
  static constexpr uint64_t kGranule = 256;

  // Reserves `capacity` bytes of address space (rounded down to whole granules).
  static Status create(uint64_t capacity, std::unique_ptr<DeviceMemoryArena>* arena);
  ~DeviceMemoryArena();
  DeviceMemoryArena(const DeviceMemoryArena&) = delete;
  DeviceMemoryArena& operator=(const DeviceMemoryArena&) = delete;

  // nullptr when `size` is 0 or no free block is large enough (the caller reports that as an
  // allocation failure, which is what TensorFlow expects from a full device).
  void* allocate(uint64_t size);

  // false (and nothing changes) if `address` is not the start of a live allocation.
  bool deallocate(const void* address);

  // Whether `address` lies in this arena's reserved range, live or not. Lock-free: the range
  // never changes after creation.
  bool reserved_range_contains(const void* address) const;

  // OK when [address, address + size) lies inside one live allocation. Otherwise
  // TF_INVALID_ARGUMENT (not inside any live allocation: freed, or never allocated) or
  // TF_OUT_OF_RANGE (starts inside an allocation but runs past its end).
  Status check_live_range(const void* address, uint64_t size) const;

  uint64_t capacity() const { return capacity_; }
  AllocatorStatsSnapshot stats() const;

 private:
  struct Allocation {
    uint64_t requested_bytes;  // what the caller asked for: the usable size
    uint64_t reserved_bytes;   // rounded up to granules: what the arena set aside
  };

  DeviceMemoryArena(std::byte* base, uint64_t capacity, uint64_t mapped_bytes);

  void add_free_block(uint64_t offset, uint64_t size);  // merges with free neighbours
  void remove_free_block(uint64_t offset, uint64_t size);
  void release_pages_to_system(uint64_t offset, uint64_t size);
  uint64_t offset_of(const void* address) const;

  std::byte* const base_;
  const uint64_t capacity_;
  const uint64_t mapped_bytes_;

  mutable std::mutex mutex_;                                     // guards everything below
  std::map<uint64_t, uint64_t> free_blocks_by_offset_;           // offset -> size
  std::set<std::pair<uint64_t, uint64_t>> free_blocks_by_size_;  // (size, offset), best fit
  std::map<uint64_t, Allocation> live_allocations_;              // by offset
  AllocatorStatistics statistics_;
};

}  // namespace reference_plugin
