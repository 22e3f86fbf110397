#pragma once
// TensorFlow's op-definition grammar for one spec string at a time, with TensorFlow's
// messages and the column where parsing stopped. An argument's type name is resolved against
// the op's attrs later (BuildOpDef), because that needs the whole op.
#include <string_view>
#include <utility>
#include <variant>

#include "ops/op_def.h"

namespace conformance::ops {

template <typename T>
class Parsed {
 public:
  Parsed(T value) : result_(std::move(value)) {}          // NOLINT: implicit on purpose
  Parsed(SpecError error) : result_(std::move(error)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(result_); }
  const T& value() const { return std::get<T>(result_); }
  T& value() { return std::get<T>(result_); }
  const SpecError& error() const { return std::get<SpecError>(result_); }

 private:
  std::variant<T, SpecError> result_;
};

// "x: T", "x: float", "x: N * T", "x: Ref(T)". type_attr holds the attr name of anything that
// is not a dtype name.
Parsed<ArgDef> ParseArgSpec(std::string_view spec);

// "name: type|int|float|bool|string|shape|tensor|func|list(...)", type sets "{float, int32}",
// type classes ("numbertype", ...), string enums "{'A', 'B'}", ">= N", "= default".
Parsed<AttrDef> ParseAttrSpec(std::string_view spec);

}  // namespace conformance::ops
