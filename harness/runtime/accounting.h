#pragma once
// Counts of plugin objects the harness created and destroyed through the wrappers, so checks
// (and tests of the wrappers) can prove nothing leaks: live() must be 0 once wrappers are gone.
#include <atomic>
#include <cstdint>

namespace conformance::runtime {

struct ObjectCount {
  std::atomic<std::int64_t> created{0};
  std::atomic<std::int64_t> destroyed{0};
  std::int64_t live() const { return created.load() - destroyed.load(); }
};

struct Accounting {
  ObjectCount device_buffers;   // allocate / deallocate (successful allocations only)
  ObjectCount host_buffers;     // host_memory_allocate / host_memory_deallocate
  ObjectCount unified_buffers;  // unified_memory_allocate / unified_memory_deallocate
  ObjectCount streams;          // create_stream / destroy_stream
  ObjectCount events;           // create_event / destroy_event
  std::atomic<std::uint64_t> plugin_calls{0};  // every callback invocation through a wrapper

  std::int64_t live_objects() const {
    return device_buffers.live() + host_buffers.live() + unified_buffers.live() + streams.live() +
           events.live();
  }
};

}  // namespace conformance::runtime
