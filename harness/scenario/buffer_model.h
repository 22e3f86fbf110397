#pragma once
// The engine's host-side picture of what one buffer must hold. Bytes nobody wrote yet are
// "unknown" (fresh allocations hold anything) and never compared. Stored in 4 KiB pages made
// on first write, so a large allocation that is only touched at its ends costs nothing.
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace conformance::scenario {

// What a range must hold: its bytes, and which of them are known (1) or not (0). Bytes, not
// std::vector<bool>, so that ranges of many megabytes move with memcpy and memchr: a per-bit loop
// over a 16 MiB copy took seconds in a sanitizer build.
struct ExpectedBytes {
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> known;
};

struct Difference {
  uint64_t offset = 0;  // of the first differing byte, from the start of the range
  uint8_t expected = 0;
  uint8_t actual = 0;
  uint64_t differing_bytes = 0;  // in the whole range
};

// The first known byte of `actual` that differs from `expected`, if any.
std::optional<Difference> FirstDifference(const ExpectedBytes& expected, const uint8_t* actual);

class BufferModel {
 public:
  explicit BufferModel(uint64_t size) : size_(size) {}

  uint64_t size() const { return size_; }
  void Write(uint64_t offset, const uint8_t* bytes, uint64_t size);
  // `unit` repeated over the range (memset: 1 byte, memset32: 4, mem_zero: 1).
  void Fill(uint64_t offset, uint64_t size, const std::vector<uint8_t>& unit);
  void Write(uint64_t offset, const ExpectedBytes& bytes);  // keeps unknown bytes unknown
  ExpectedBytes Read(uint64_t offset, uint64_t size) const;

 private:
  static constexpr uint64_t kPageBytes = 4096;
  // A page is either uniform (every byte known and equal to `fill`: what large memsets and
  // mem_zero produce, kept in O(1) so filling gigabytes costs the host nothing) or explicit.
  struct Page {
    bool uniform = false;
    uint8_t fill = 0;
    std::unique_ptr<uint8_t[]> bytes;  // explicit pages only
    std::unique_ptr<uint8_t[]> known;  // 1: known
    void MakeExplicit();
  };
  Page& PageAt(uint64_t page);

  uint64_t size_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace conformance::scenario
