#include "stream_executor/arena_directory.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "stream_executor/device_memory_arena.h"

namespace reference_plugin::arena_directory {
namespace {

// Lock order: this mutex, then an arena's. Arenas never call back into the directory while
// holding their own lock, and the arena destructor removes itself before unmapping, so an
// arena found here stays valid while the lock is held.
// Both are intentionally never destroyed, so an arena torn down during process exit (after
// static destructors ran) still finds them.
std::mutex& directory_mutex() {
  static auto& mutex = *new std::mutex;
  return mutex;
}

std::vector<const DeviceMemoryArena*>& live_arenas() {
  static auto& arenas = *new std::vector<const DeviceMemoryArena*>;
  return arenas;
}

}  // namespace

void add(const DeviceMemoryArena* arena) {
  std::lock_guard lock(directory_mutex());
  live_arenas().push_back(arena);
}

void remove(const DeviceMemoryArena* arena) {
  std::lock_guard lock(directory_mutex());
  std::erase(live_arenas(), arena);
}

Status check_live_range(const void* address, uint64_t size) {
  std::lock_guard lock(directory_mutex());
  for (const DeviceMemoryArena* arena : live_arenas()) {
    if (arena->reserved_range_contains(address)) return arena->check_live_range(address, size);
  }
  return invalid_argument("address ", address,
                          " is not device memory of any device of this plugin");
}

}  // namespace reference_plugin::arena_directory
