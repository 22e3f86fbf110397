#include "scenario/host_data.h"

#include <algorithm>
#include <cstring>

namespace conformance::scenario {
namespace {

// splitmix64: tiny, fast, and every seed gives a full-period, well-mixed stream.
uint64_t SplitMix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<uint8_t> GenerateBytes(const HostData& data, uint64_t size, uint64_t seed,
                                   uint64_t repetition) {
  std::vector<uint8_t> bytes(size);
  switch (data.kind) {
    case HostData::Kind::kLiteral:
      for (uint64_t i = 0; i < size && i < data.bytes.size(); ++i) bytes[i] = data.bytes[i];
      break;
    case HostData::Kind::kPattern: {
      const uint64_t unit = data.bytes.size();
      if (data.increment == 0) {
        // A repeated unit: doubled with memcpy, as a per-byte walk of a 16 MiB pattern took
        // seconds in a sanitizer build.
        const uint64_t first = std::min(unit, size);
        std::copy_n(data.bytes.begin(), first, bytes.begin());
        for (uint64_t filled = first; filled < size;) {
          const uint64_t more = std::min(filled - filled % unit, size - filled);
          std::memcpy(bytes.data() + filled, bytes.data(), more);
          filled += more;
        }
        break;
      }
      for (uint64_t i = 0; i < size; ++i) {
        bytes[i] = static_cast<uint8_t>(data.bytes[i % unit] + data.increment * (i / unit));
      }
      break;
    }
    case HostData::Kind::kRandom: {
      // Three inputs mixed so that neighbouring offsets or repetitions give unrelated streams.
      uint64_t state = seed;
      state = SplitMix(state) ^ data.seed_offset;
      state = SplitMix(state) ^ repetition;
      for (uint64_t i = 0; i < size; i += 8) {
        uint64_t word = SplitMix(state);
        for (uint64_t b = 0; b < 8 && i + b < size; ++b, word >>= 8)
          bytes[i + b] = static_cast<uint8_t>(word);
      }
      break;
    }
  }
  return bytes;
}

}  // namespace conformance::scenario
