// The spellings the suite accepts for names in scenario files and on the command line, checked
// character by character: each pattern is a single character class repeated, and std::regex
// would cost a second of compile time in every batch that matches one (README main job).
#pragma once

#include <string_view>

namespace conformance {

inline bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
inline bool IsAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }

// [a-z0-9_]+: names of scenarios, models, buffers, streams and events, which appear in check
// ids and messages and so are kept plain.
inline bool IsLowerSnakeName(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsAsciiLower(c) && !IsAsciiDigit(c) && c != '_') return false;
  }
  return true;
}

// [A-Za-z0-9_]+: tensor and node names.
inline bool IsWordName(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsAsciiLower(c) && !IsAsciiUpper(c) && !IsAsciiDigit(c) && c != '_') return false;
  }
  return true;
}

// [A-Z][A-Za-z0-9_]*: TensorFlow's op names.
inline bool IsOpName(std::string_view text) {
  return !text.empty() && IsAsciiUpper(text.front()) &&
         (text.size() == 1 || IsWordName(text.substr(1)));
}

// MAJOR.MINOR or MAJOR.MINOR.PATCH, each part one or more digits: a TensorFlow release.
inline bool IsReleaseNumber(std::string_view text) {
  int parts = 0;
  while (true) {
    std::size_t digits = 0;
    while (digits < text.size() && IsAsciiDigit(text[digits])) ++digits;
    if (digits == 0) return false;
    ++parts;
    text.remove_prefix(digits);
    if (text.empty()) return parts == 2 || parts == 3;
    if (text.front() != '.' || parts == 3) return false;
    text.remove_prefix(1);
  }
}

}  // namespace conformance
