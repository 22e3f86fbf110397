#include "runtime/byte_patterns.h"

#include <cstdio>

namespace conformance::runtime {
namespace {

constexpr int kMaxShift = 16;

std::string Hex(std::byte value) {
  static const char* digits = "0123456789abcdef";
  const auto v = static_cast<unsigned>(value);
  return std::string("0x") + digits[v >> 4] + digits[v & 15];
}

// The data landed `shift` bytes away from where it belongs (positive: later), everywhere both
// ranges overlap, and that is not also true of no shift at all.
bool ShiftedBy(const std::byte* actual, const std::byte* expected, std::size_t size, int shift) {
  const std::size_t magnitude = static_cast<std::size_t>(shift < 0 ? -shift : shift);
  if (magnitude >= size / 2) return false;
  for (std::size_t i = magnitude; i < size; ++i) {
    const std::size_t from = shift > 0 ? i - magnitude : i;
    const std::size_t to = shift > 0 ? i : i - magnitude;
    if (actual[to] != expected[from]) return false;
  }
  return true;
}

std::string Classify(const std::byte* actual, const std::byte* expected, std::size_t size) {
  bool constant = true;
  for (std::size_t i = 1; i < size && constant; ++i) constant = actual[i] == actual[0];
  if (constant)
    return actual[0] == std::byte{0} ? "all zeros" : "a constant fill of " + Hex(actual[0]);
  for (int shift = 1; shift <= kMaxShift; ++shift) {
    if (ShiftedBy(actual, expected, size, shift)) return "shifted by +" + std::to_string(shift);
    if (ShiftedBy(actual, expected, size, -shift)) return "shifted by -" + std::to_string(shift);
  }
  std::size_t prefix = 0;
  while (prefix < size && actual[prefix] == expected[prefix]) ++prefix;
  bool rest_differs = true;
  for (std::size_t i = prefix; i < size && rest_differs; ++i)
    rest_differs = actual[i] != expected[i];
  if (prefix > 0 && rest_differs) {
    return "only the first " + std::to_string(prefix) + " of " + std::to_string(size) +
           " bytes written";
  }
  std::size_t suffix = 0;
  while (suffix < size && actual[size - 1 - suffix] == expected[size - 1 - suffix]) ++suffix;
  bool head_differs = true;
  for (std::size_t i = 0; i + suffix < size && head_differs; ++i)
    head_differs = actual[i] != expected[i];
  if (suffix > 0 && head_differs) {
    return "only the last " + std::to_string(suffix) + " of " + std::to_string(size) +
           " bytes written";
  }
  return "wrong bytes";
}

}  // namespace

std::vector<std::byte> SeededBytes(std::uint64_t seed, std::size_t size) {
  std::vector<std::byte> bytes(size);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < size; i += 8) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (std::size_t b = 0; b < 8 && i + b < size; ++b)
      bytes[i + b] = static_cast<std::byte>(z >> (8 * b));
  }
  return bytes;
}

std::optional<std::string> FirstMismatch(const std::byte* actual, const std::byte* expected,
                                         std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    if (actual[i] != expected[i]) {
      char text[96];
      std::snprintf(text, sizeof text, "byte %zu of %zu: expected 0x%02x, got 0x%02x", i, size,
                    static_cast<unsigned>(expected[i]), static_cast<unsigned>(actual[i]));
      return std::string(text);
    }
  }
  return std::nullopt;
}

std::string DescribeWrongBytes(const std::byte* actual, const std::byte* expected,
                               std::size_t size) {
  const auto first = FirstMismatch(actual, expected, size);
  if (!first) return "";
  return Classify(actual, expected, size) + "; " + *first;
}

}  // namespace conformance::runtime
