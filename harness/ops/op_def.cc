#include "ops/op_def.h"

#include <algorithm>

namespace conformance::ops {
namespace {

template <typename T>
const T* FindNamed(const std::vector<T>& items, std::string_view name) {
  auto it =
      std::find_if(items.begin(), items.end(), [&](const T& item) { return item.name == name; });
  return it == items.end() ? nullptr : &*it;
}

}  // namespace

std::string ToString(const SpecError& error) {
  std::string text =
      "'" + error.spec + "' column " + std::to_string(error.column) + ": " + error.message;
  if (!error.hint.empty()) text += " (" + error.hint + ")";
  return text;
}

const AttrDef* OpDef::FindAttr(std::string_view attr) const { return FindNamed(attrs, attr); }
const ArgDef* OpDef::FindInput(std::string_view arg) const { return FindNamed(inputs, arg); }
const ArgDef* OpDef::FindOutput(std::string_view arg) const { return FindNamed(outputs, arg); }

}  // namespace conformance::ops
