#include "ops/spec_parser.h"

#include <algorithm>
#include <string>

#include "ops/default_value.h"
#include "ops/spec_cursor.h"
#include "ops/type_names.h"
#include "run/did_you_mean.h"

namespace conformance::ops {
namespace {

// "list" spaces "(" spaces, all or nothing.
bool ConsumeListPrefix(SpecCursor& cursor) {
  const std::size_t start = cursor.position();
  if (cursor.Consume("list")) {
    cursor.SkipSpaces();
    if (cursor.Consume("(")) {
      cursor.SkipSpaces();
      return true;
    }
  }
  cursor.set_position(start);
  return false;
}

// TensorFlow recognises these words as a type class before anything else; one of them is a
// misspelling TensorFlow itself accepts here and then rejects as "not a compound type".
std::optional<std::string_view> ConsumeCompoundPrefix(SpecCursor& cursor) {
  for (std::string_view word :
       {"numbertype", "numerictype", "quantizedtype", "realnumbertype", "realnumberictype"}) {
    if (cursor.Consume(word)) return word;
  }
  return std::nullopt;
}

std::string UnknownTypeHint(std::string_view name) {
  std::vector<std::string> candidates = DataTypeNames();
  for (std::string_view word : {"numbertype", "realnumbertype", "quantizedtype"}) {
    candidates.emplace_back(word);
  }
  auto guess = ClosestMatch(name, candidates);
  return guess ? "did you mean " + Quoted(*guess) + "?" : std::string();
}

// "{'A', 'B'}" after the "{" and its spaces.
std::optional<SpecError> ParseAllowedStrings(SpecCursor& cursor, AttrDef& attr) {
  while (true) {
    const char quote = cursor.peek();
    const std::size_t start = cursor.position();
    std::string value;
    bool closed = false;
    if (quote == '\'' || quote == '"') {
      cursor.set_position(start + 1);
      while (!cursor.at_end()) {
        char c = cursor.peek();
        cursor.set_position(cursor.position() + 1);
        if (c == quote) {
          closed = true;
          break;
        }
        if (c == '\\' && !cursor.at_end()) {
          c = cursor.peek();
          cursor.set_position(cursor.position() + 1);
        }
        value += c;
      }
    }
    if (!closed) {
      cursor.set_position(start);
      return cursor.Error("Trouble parsing allowed string at " + Quoted(cursor.rest()));
    }
    cursor.SkipSpaces();
    attr.allowed_strings.push_back(value);
    if (cursor.Consume(",")) {
      cursor.SkipSpaces();
      if (cursor.Consume("}")) return std::nullopt;  // a trailing ", }" is allowed
    } else if (cursor.Consume("}")) {
      return std::nullopt;
    } else {
      return cursor.Error("Expected , or } after strings in list, not: " + Quoted(cursor.rest()));
    }
  }
}

// "{float, numbertype}" after the "{" and its spaces.
std::optional<SpecError> ParseAllowedTypes(SpecCursor& cursor, AttrDef& attr) {
  while (true) {
    const std::size_t start = cursor.position();
    const std::string_view name = cursor.ConsumeWord(IsLowerOrDigit, IsLowerOrDigit);
    if (name.empty())
      return cursor.Error("Trouble parsing type string at " + Quoted(cursor.rest()));
    cursor.SkipSpaces();
    if (auto types = TypeClass(name)) {
      attr.allowed_types.insert(attr.allowed_types.end(), types->begin(), types->end());
    } else if (auto dtype = DataTypeFromName(name)) {
      attr.allowed_types.push_back(*dtype);
    } else {
      SpecError error = cursor.ErrorAt(start, "Unrecognized type string " + Quoted(name));
      error.hint = UnknownTypeHint(name);
      return error;
    }
    if (cursor.Consume(",")) {
      cursor.SkipSpaces();
      if (cursor.Consume("}")) return std::nullopt;
    } else if (cursor.Consume("}")) {
      return std::nullopt;
    } else {
      return cursor.Error("Expected , or } after types in list, not: " + Quoted(cursor.rest()));
    }
  }
}

// The "<type>" part of an attr: sets attr.type to the element type.
std::optional<SpecError> ParseAttrType(SpecCursor& cursor, AttrDef& attr) {
  // Prefixes, in TensorFlow's order: "int64" reads as "int" followed by an unparsed "64".
  for (std::string_view word :
       {"string", "int", "float", "bool", "type", "shape", "tensor", "func"}) {
    if (cursor.Consume(word)) {
      attr.type = word;
      return std::nullopt;
    }
  }
  const std::size_t start = cursor.position();
  if (auto word = ConsumeCompoundPrefix(cursor)) {
    auto types = TypeClass(*word);
    if (!types)
      return cursor.ErrorAt(start, "Expected to see a compound type, saw: " + std::string(*word));
    attr.type = "type";
    attr.allowed_types = *types;
    return std::nullopt;
  }
  if (cursor.Consume("{")) {
    cursor.SkipSpaces();
    if (cursor.peek() == '\'' || cursor.peek() == '"') {
      attr.type = "string";
      return ParseAllowedStrings(cursor, attr);
    }
    attr.type = "type";
    return ParseAllowedTypes(cursor, attr);
  }
  return cursor.Error("Trouble parsing type string at " + Quoted(cursor.rest()));
}

// Optional sign and digits, then spaces.
std::optional<int64_t> ConsumeNumber(SpecCursor& cursor) {
  const std::size_t start = cursor.position();
  cursor.SkipSpaces();
  std::string digits;
  if (cursor.Consume("-")) digits = "-";
  const std::string_view run = cursor.ConsumeWord(IsDigit, IsDigit);
  if (run.empty()) {
    cursor.set_position(start);
    return std::nullopt;
  }
  digits += run;
  cursor.SkipSpaces();
  try {
    return std::stoll(digits);
  } catch (const std::exception&) {
    cursor.set_position(start);
    return std::nullopt;
  }
}

}  // namespace

Parsed<AttrDef> ParseAttrSpec(std::string_view spec) {
  SpecCursor cursor(spec);
  AttrDef attr;
  attr.name = cursor.ConsumeWord(IsLetter, IsWordChar);
  cursor.SkipSpaces();
  if (attr.name.empty() || !cursor.Consume(":")) return cursor.Error("Trouble parsing '<name>:'");
  cursor.SkipSpaces();

  const bool is_list = ConsumeListPrefix(cursor);
  if (auto error = ParseAttrType(cursor, attr)) return *error;
  cursor.SkipSpaces();
  if (is_list) {
    if (!cursor.Consume(")")) {
      return cursor.Error("Expected ) to close 'list(', not: " + Quoted(cursor.rest()));
    }
    cursor.SkipSpaces();
    attr.type = "list(" + attr.type + ")";
  }

  if ((is_list || attr.type == "int") && cursor.Consume(">=")) {
    auto minimum = ConsumeNumber(cursor);
    if (!minimum) {
      return cursor.Error("Could not parse integer lower limit after '>=', found " +
                          Quoted(cursor.rest()) + " instead");
    }
    attr.minimum = *minimum;
  }

  if (cursor.Consume("=")) {
    cursor.SkipSpaces();
    const std::string_view text = cursor.rest();
    auto value = ParseDefaultValue(attr.type, text);
    if (!value) return cursor.Error("Could not parse default value " + Quoted(text));
    attr.default_text = std::string(text);
    attr.default_value = std::move(*value);
  } else if (!cursor.at_end()) {
    return cursor.Error("Extra " + Quoted(cursor.rest()) + " unparsed at the end");
  }
  return attr;
}

Parsed<ArgDef> ParseArgSpec(std::string_view spec) {
  SpecCursor cursor(spec);
  ArgDef arg;
  arg.name = cursor.ConsumeWord(IsLower, IsLowerWordChar);
  cursor.SkipSpaces();
  if (arg.name.empty() || !cursor.Consume(":")) return cursor.Error("Trouble parsing 'name:'");
  cursor.SkipSpaces();

  const std::size_t before_ref = cursor.position();
  if (cursor.Consume("Ref")) {
    cursor.SkipSpaces();
    if (cursor.Consume("(")) {
      cursor.SkipSpaces();
      arg.is_ref = true;
    } else {
      cursor.set_position(before_ref);
    }
  }

  std::size_t type_start = cursor.position();
  const std::string_view first = cursor.ConsumeWord(IsLetter, IsWordChar);
  if (first.empty()) {
    return cursor.Error("Trouble parsing either a type or an attr name at " +
                        Quoted(cursor.rest()));
  }
  cursor.SkipSpaces();
  std::string_view type_or_attr = first;
  const std::size_t before_times = cursor.position();
  if (cursor.Consume("*")) {
    cursor.SkipSpaces();
    const std::size_t second_start = cursor.position();
    const std::string_view second = cursor.ConsumeWord(IsLetter, IsWordChar);
    if (second.empty()) {
      cursor.set_position(before_times);  // not "N * T": what follows is left unparsed
    } else {
      cursor.SkipSpaces();
      arg.number_attr = first;
      type_or_attr = second;
      type_start = second_start;
    }
  }
  arg.type_column = static_cast<int>(type_start) + 1;
  if (auto dtype = DataTypeFromName(type_or_attr)) {
    arg.type = *dtype;
  } else {
    arg.type_attr = type_or_attr;
  }

  if (arg.is_ref && !cursor.Consume(")")) {
    return cursor.Error("Did not find closing ')' for 'Ref(', instead found: " +
                        Quoted(cursor.rest()));
  }
  cursor.SkipSpaces();
  if (!cursor.at_end())
    return cursor.Error("Extra " + Quoted(cursor.rest()) + " unparsed at the end");
  return arg;
}

}  // namespace conformance::ops
