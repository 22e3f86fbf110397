#pragma once
// Bytes a check writes and how to say what came back instead: seeded patterns that are the same
// on every machine, the first differing byte, and a description of the kind of wrongness
// ("shifted by +1", "all zeros", "a constant fill of 0x5a", "only the first 100 of 4096 bytes
// written") that points a vendor at the bug rather than at a byte.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conformance::runtime {

// Seeded bytes (splitmix64): the same seed gives the same bytes on every machine.
std::vector<std::byte> SeededBytes(std::uint64_t seed, std::size_t size);

// "byte 17 of 4096: expected 0x3a, got 0x00" for the first difference; nullopt when equal.
std::optional<std::string> FirstMismatch(const std::byte* actual, const std::byte* expected,
                                         std::size_t size);

// How `actual` differs from `expected` ("shifted by +1", "all zeros", ...), then the first
// differing byte; "" when equal.
std::string DescribeWrongBytes(const std::byte* actual, const std::byte* expected,
                               std::size_t size);

}  // namespace conformance::runtime
