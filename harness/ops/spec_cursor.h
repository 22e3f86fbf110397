#pragma once
// A read position in one spec string, with the scanning steps TensorFlow's op-definition
// parser is made of (consume a literal, a run of characters, spaces), so the parsers read like
// the grammar and every error knows its column.
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

#include "ops/op_def.h"

namespace conformance::ops {

class SpecCursor {
 public:
  explicit SpecCursor(std::string_view spec) : spec_(spec) {}

  std::string_view rest() const { return spec_.substr(pos_); }
  bool at_end() const { return pos_ >= spec_.size(); }
  char peek() const { return at_end() ? '\0' : spec_[pos_]; }
  std::size_t position() const { return pos_; }
  void set_position(std::size_t pos) { pos_ = pos; }

  void SkipSpaces() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(spec_[pos_])) != 0) ++pos_;
  }
  bool Consume(std::string_view literal) {
    if (!rest().starts_with(literal)) return false;
    pos_ += literal.size();
    return true;
  }
  // One character satisfying `first`, then any number satisfying `more`; "" if none matched.
  template <typename First, typename More>
  std::string_view ConsumeWord(First first, More more) {
    if (at_end() || !first(static_cast<unsigned char>(peek()))) return {};
    const std::size_t start = pos_++;
    while (!at_end() && more(static_cast<unsigned char>(peek()))) ++pos_;
    return spec_.substr(start, pos_ - start);
  }

  // An error at the current position (or at `pos`).
  SpecError Error(std::string message) const { return ErrorAt(pos_, std::move(message)); }
  SpecError ErrorAt(std::size_t pos, std::string message) const {
    return SpecError{std::string(spec_), static_cast<int>(pos) + 1, std::move(message), {}};
  }

 private:
  std::string_view spec_;
  std::size_t pos_ = 0;
};

inline bool IsLetter(unsigned char c) { return std::isalpha(c) != 0; }
inline bool IsLower(unsigned char c) { return c >= 'a' && c <= 'z'; }
inline bool IsDigit(unsigned char c) { return std::isdigit(c) != 0; }
inline bool IsWordChar(unsigned char c) { return std::isalnum(c) != 0 || c == '_'; }
inline bool IsLowerWordChar(unsigned char c) { return IsLower(c) || IsDigit(c) || c == '_'; }
inline bool IsLowerOrDigit(unsigned char c) { return IsLower(c) || IsDigit(c); }

}  // namespace conformance::ops
