#include "stream_executor/device_memory_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "stream_executor/arena_directory.h"

namespace reference_plugin {
namespace {

// Returning pages to the kernel is a system call; only worth it for large blocks.
constexpr uint64_t kReleaseThresholdBytes = uint64_t{1} << 20;

uint64_t round_up(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

uint64_t page_size() {
  static const uint64_t size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

Status DeviceMemoryArena::create(uint64_t capacity, std::unique_ptr<DeviceMemoryArena>* arena) {
  const uint64_t usable = capacity / kGranule * kGranule;
  if (usable == 0) {
    return invalid_argument("device memory capacity ", capacity, " is smaller than one ", kGranule,
                            "-byte allocation granule");
  }
  const uint64_t mapped = round_up(usable, page_size());
  // MAP_NORESERVE: reserve address space only; no swap/commit accounting for untouched pages.
  void* base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    return resource_exhausted("could not reserve ", mapped,
                              " bytes of address space for device memory: ", std::strerror(errno));
  }
  arena->reset(new DeviceMemoryArena(static_cast<std::byte*>(base), usable, mapped));
  arena_directory::add(arena->get());
  return Status();
}

DeviceMemoryArena::DeviceMemoryArena(std::byte* base, uint64_t capacity, uint64_t mapped_bytes)
    : base_(base), capacity_(capacity), mapped_bytes_(mapped_bytes), statistics_(capacity) {
  add_free_block(0, capacity_);
}

DeviceMemoryArena::~DeviceMemoryArena() {
  arena_directory::remove(this);
  munmap(base_, mapped_bytes_);
}

void* DeviceMemoryArena::allocate(uint64_t size) {
  if (size == 0 || size > capacity_) return nullptr;  // the check also prevents overflow below
  const uint64_t reserved = round_up(size, kGranule);

  std::lock_guard lock(mutex_);
  auto best_fit = free_blocks_by_size_.lower_bound({reserved, 0});
  if (best_fit == free_blocks_by_size_.end()) return nullptr;
  const auto [block_size, block_offset] = *best_fit;

  remove_free_block(block_offset, block_size);
  if (block_size > reserved) add_free_block(block_offset + reserved, block_size - reserved);
  live_allocations_.emplace(block_offset, Allocation{size, reserved});
  statistics_.record_allocation(reserved);
  return base_ + block_offset;
}

bool DeviceMemoryArena::deallocate(const void* address) {
  if (!reserved_range_contains(address)) return false;
  std::lock_guard lock(mutex_);
  auto it = live_allocations_.find(offset_of(address));
  if (it == live_allocations_.end()) return false;
  const uint64_t offset = it->first;
  const uint64_t reserved = it->second.reserved_bytes;
  live_allocations_.erase(it);
  statistics_.record_deallocation(reserved);
  // Still under the lock: once the block is back on the free list another thread may
  // allocate and write it, and releasing pages then would wipe that thread's data.
  release_pages_to_system(offset, reserved);
  add_free_block(offset, reserved);
  return true;
}

bool DeviceMemoryArena::reserved_range_contains(const void* address) const {
  const auto* byte = static_cast<const std::byte*>(address);
  return byte >= base_ && byte < base_ + capacity_;
}

Status DeviceMemoryArena::check_live_range(const void* address, uint64_t size) const {
  if (!reserved_range_contains(address)) {
    return invalid_argument("address ", address, " is not device memory of this device");
  }
  const uint64_t offset = offset_of(address);
  std::lock_guard lock(mutex_);
  // The allocation that could contain `offset` is the last one starting at or before it.
  auto after = live_allocations_.upper_bound(offset);
  if (after == live_allocations_.begin()) {
    return invalid_argument("device address ", address,
                            " is not inside a live allocation (freed or never allocated)");
  }
  const auto& [start, allocation] = *std::prev(after);
  const uint64_t end = start + allocation.requested_bytes;
  if (offset >= end) {
    return invalid_argument("device address ", address,
                            " is not inside a live allocation (freed or never allocated)");
  }
  if (size > end - offset) {
    return out_of_range("access of ", size, " bytes at device address ", address,
                        " runs past the end of its ", allocation.requested_bytes,
                        "-byte allocation (", end - offset, " bytes left)");
  }
  return Status();
}

AllocatorStatsSnapshot DeviceMemoryArena::stats() const {
  std::lock_guard lock(mutex_);
  const uint64_t largest_free =
      free_blocks_by_size_.empty() ? 0 : free_blocks_by_size_.rbegin()->first;
  return statistics_.snapshot(largest_free);
}

void DeviceMemoryArena::add_free_block(uint64_t offset, uint64_t size) {
  // Merge with the free block that ends exactly where this one starts ...
  auto next = free_blocks_by_offset_.lower_bound(offset);
  if (next != free_blocks_by_offset_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      size += previous->second;
      free_blocks_by_size_.erase({previous->second, previous->first});
      free_blocks_by_offset_.erase(previous);
    }
  }
  // ... and with the one that starts exactly where it ends.
  if (next != free_blocks_by_offset_.end() && offset + size == next->first) {
    size += next->second;
    free_blocks_by_size_.erase({next->second, next->first});
    free_blocks_by_offset_.erase(next);
  }
  free_blocks_by_offset_.emplace(offset, size);
  free_blocks_by_size_.emplace(size, offset);
}

void DeviceMemoryArena::remove_free_block(uint64_t offset, uint64_t size) {
  free_blocks_by_size_.erase({size, offset});
  free_blocks_by_offset_.erase(offset);
}

void DeviceMemoryArena::release_pages_to_system(uint64_t offset, uint64_t size) {
  if (size < kReleaseThresholdBytes) return;
  // Only whole pages that lie entirely inside the freed block: the partial pages at either
  // end may hold neighbouring allocations.
  const uint64_t first_page = round_up(offset, page_size());
  const uint64_t end_page = (offset + size) / page_size() * page_size();
  if (end_page > first_page) madvise(base_ + first_page, end_page - first_page, MADV_DONTNEED);
}

uint64_t DeviceMemoryArena::offset_of(const void* address) const {
  return static_cast<uint64_t>(static_cast<const std::byte*>(address) - base_);
}

}  // namespace reference_plugin
