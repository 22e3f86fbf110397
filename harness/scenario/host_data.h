#pragma once
// The bytes a scenario's inline data stands for. Deterministic: the same seed, seed_offset and
// repetition always give the same bytes, so a printed seed reproduces a failing run exactly.
#include <cstdint>
#include <vector>

#include "scenario/scenario.h"

namespace conformance::scenario {

// `size` bytes of `data`: a literal as is (its size must match), a pattern repeated (each
// repetition adds `increment` to every byte), random bytes from splitmix64 seeded with
// (seed, seed_offset, repetition).
std::vector<uint8_t> GenerateBytes(const HostData& data, uint64_t size, uint64_t seed,
                                   uint64_t repetition);

}  // namespace conformance::scenario
