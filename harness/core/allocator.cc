#include "core/allocator.h"

#include <cstdlib>
#include <cstring>

namespace conformance::core {
namespace {

class AlignedHostAllocator final : public MemoryAllocator {
 public:
  std::string Name() const override { return "cpu"; }
  void* Allocate(std::size_t bytes) override {
    // aligned_alloc wants a multiple of the alignment; zero-byte requests still get a
    // distinct, aligned block so callers can treat nullptr as "out of memory".
    std::size_t rounded = (bytes + kDefaultAlignment - 1) / kDefaultAlignment * kDefaultAlignment;
    if (rounded == 0) rounded = kDefaultAlignment;
    void* ptr = std::aligned_alloc(kDefaultAlignment, rounded);
    if (ptr != nullptr) std::memset(ptr, kHostPoison, rounded);
    return ptr;
  }
  void Deallocate(void* ptr, std::size_t) override { std::free(ptr); }
};

}  // namespace

std::shared_ptr<MemoryAllocator> HostAllocator() {
  static const std::shared_ptr<MemoryAllocator> allocator =
      std::make_shared<AlignedHostAllocator>();
  return allocator;
}

}  // namespace conformance::core
