#include "ops/default_value.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "ops/spec_cursor.h"
#include "ops/type_names.h"

namespace conformance::ops {
namespace {

// A scalar token: a quoted string, or a run of characters up to ',', ']' or the end.
std::optional<std::string> NextToken(SpecCursor& cursor, bool* quoted) {
  cursor.SkipSpaces();
  *quoted = false;
  const char quote = cursor.peek();
  if (quote == '\'' || quote == '"') {
    std::string value;
    cursor.Consume(std::string_view(&quote, 1));
    while (!cursor.at_end() && cursor.peek() != quote) {
      char c = cursor.peek();
      cursor.set_position(cursor.position() + 1);
      if (c == '\\' && !cursor.at_end()) {
        c = cursor.peek();
        cursor.set_position(cursor.position() + 1);
        if (c == 'n') c = '\n';
        if (c == 't') c = '\t';
      }
      value += c;
    }
    if (!cursor.Consume(std::string_view(&quote, 1))) return std::nullopt;
    *quoted = true;
    cursor.SkipSpaces();
    return value;
  }
  std::string value;
  while (!cursor.at_end() && cursor.peek() != ',' && cursor.peek() != ']') {
    value += cursor.peek();
    cursor.set_position(cursor.position() + 1);
  }
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0)
    value.pop_back();
  if (value.empty()) return std::nullopt;
  return value;
}

std::optional<int64_t> ToInt(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 0);
  if (errno != 0 || end == text.c_str() || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(value);
}

std::optional<float> ToFloat(const std::string& text) {
  std::string number = text;
  if (!number.empty() && (number.back() == 'f' || number.back() == 'F') &&
      number.find_first_of("iI") == std::string::npos) {
    number.pop_back();  // protobuf text accepts "1.5f"
  }
  char* end = nullptr;
  const float value = std::strtof(number.c_str(), &end);
  if (end == number.c_str() || *end != '\0') return std::nullopt;
  return value;
}

std::optional<bool> ToBool(const std::string& text) {
  if (text == "true" || text == "True" || text == "t" || text == "1") return true;
  if (text == "false" || text == "False" || text == "f" || text == "0") return false;
  return std::nullopt;
}

std::optional<TF_DataType> ToType(const std::string& text) {
  if (auto dtype = DataTypeFromEnumName(text)) return dtype;
  if (auto number = ToInt(text); number && *number > 0 && *number <= TF_UINT2) {
    return static_cast<TF_DataType>(*number);
  }
  return std::nullopt;
}

// Parses one element of `type` into the matching field of `list` (or of `scalar`).
bool ParseElement(std::string_view type, const std::string& token, bool quoted,
                  core::AttrList& list) {
  if (type == "string") {
    if (!quoted) return false;
    list.s.push_back(token);
    return true;
  }
  if (quoted) return false;
  if (type == "int") {
    auto value = ToInt(token);
    if (value) list.i.push_back(*value);
    return value.has_value();
  }
  if (type == "float") {
    auto value = ToFloat(token);
    if (value) list.f.push_back(*value);
    return value.has_value();
  }
  if (type == "bool") {
    auto value = ToBool(token);
    if (value) list.b.push_back(*value);
    return value.has_value();
  }
  if (type == "type") {
    auto value = ToType(token);
    if (value) list.type.push_back(*value);
    return value.has_value();
  }
  return false;
}

core::AttrValue Single(std::string_view type, const core::AttrList& list) {
  if (type == "string") return list.s.front();
  if (type == "int") return list.i.front();
  if (type == "float") return list.f.front();
  if (type == "bool") return static_cast<bool>(list.b.front());
  return list.type.front();
}

}  // namespace

std::optional<core::AttrValue> ParseDefaultValue(std::string_view attr_type,
                                                 std::string_view text) {
  const bool is_list = attr_type.starts_with("list(");
  const std::string_view element = is_list ? attr_type.substr(5, attr_type.size() - 6) : attr_type;
  if (element == "shape" || element == "tensor" || element == "func" || element == "any") {
    return text.empty() ? std::nullopt : std::optional<core::AttrValue>(core::AttrNotSet{});
  }
  SpecCursor cursor(text);
  core::AttrList list;
  bool quoted = false;
  cursor.SkipSpaces();
  if (is_list && cursor.Consume("[")) {
    cursor.SkipSpaces();
    if (!cursor.Consume("]")) {
      while (true) {
        auto token = NextToken(cursor, &quoted);
        if (!token || !ParseElement(element, *token, quoted, list)) return std::nullopt;
        cursor.SkipSpaces();
        if (cursor.Consume("]")) break;
        if (!cursor.Consume(",")) return std::nullopt;
      }
    }
  } else {
    auto token = NextToken(cursor, &quoted);
    if (!token || !ParseElement(element, *token, quoted, list)) return std::nullopt;
  }
  cursor.SkipSpaces();
  if (!cursor.at_end()) return std::nullopt;
  if (is_list) return list;
  return Single(element, list);
}

}  // namespace conformance::ops
