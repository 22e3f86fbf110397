// Lists in messages: the items in order with a separator between each two.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace conformance {

inline std::string Joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (const std::string& item : items) {
    if (!text.empty()) text += separator;
    text += item;
  }
  return text;
}

}  // namespace conformance
