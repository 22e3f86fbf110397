#pragma once
// Protobuf wire bytes written by hand for the core's unit tests (which link no protobuf and
// cannot reach the core's internal writer).
#include <cstdint>
#include <string>
#include <string_view>

namespace conformance::core::testing {

inline std::string Varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}
inline std::string VarintField(uint32_t field, uint64_t value) {
  return Varint(uint64_t{field} << 3) + Varint(value);
}
inline std::string BytesField(uint32_t field, std::string_view bytes) {
  return Varint((uint64_t{field} << 3) | 2) + Varint(bytes.size()) + std::string(bytes);
}
inline std::string Fixed32Field(uint32_t field, uint32_t value) {
  std::string out = Varint((uint64_t{field} << 3) | 5);
  out.append(reinterpret_cast<const char*>(&value), 4);
  return out;
}

}  // namespace conformance::core::testing
