#pragma once
// Host memory for copies whose pages are all faulted in before any timing starts, so the
// first timed iteration does not pay for page faults (a 256 MiB buffer is 65536 of them).
// Plain process memory, not the plugin's host_memory_allocate: the host memcpy baseline
// and the plugin copies then read and write the same kind of memory.
#include <cstddef>
#include <cstdint>
#include <memory>

namespace conformance::bench {

class TouchedHostBuffer {
 public:
  // Every page is written with `fill`. Throws std::bad_alloc when memory is short.
  TouchedHostBuffer(std::uint64_t size, std::byte fill);

  std::byte* data() const { return bytes_.get(); }
  std::uint64_t size() const { return size_; }

 private:
  struct FreeDeleter {
    void operator()(std::byte* bytes) const;
  };
  std::unique_ptr<std::byte, FreeDeleter> bytes_;
  std::uint64_t size_;
};

}  // namespace conformance::bench
