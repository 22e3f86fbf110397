#include "touched_host_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace conformance::bench {
namespace {

// Page alignment: copies start on a page, like the arena allocations they are compared with.
constexpr std::uint64_t kAlignment = 4096;

}  // namespace

void TouchedHostBuffer::FreeDeleter::operator()(std::byte* bytes) const { std::free(bytes); }

TouchedHostBuffer::TouchedHostBuffer(std::uint64_t size, std::byte fill) : size_(size) {
  const std::uint64_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  bytes_.reset(static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded)));
  if (bytes_ == nullptr) throw std::bad_alloc();
  // Writing every byte (not just one per page) also settles the pages in the cache
  // hierarchy the same way for every benchmark that uses a fresh buffer.
  std::memset(bytes_.get(), static_cast<int>(fill), rounded);
}

}  // namespace conformance::bench
