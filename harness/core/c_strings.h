#pragma once
// The C strings the C API is given, any of which may be null.
#include <string>
#include <string_view>

namespace conformance::core {

inline std::string StringOrEmpty(const char* text) {
  return text == nullptr ? std::string() : text;
}
inline std::string_view ViewOrEmpty(const char* text) {
  return text == nullptr ? std::string_view() : text;
}

}  // namespace conformance::core
