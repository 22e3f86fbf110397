#include "report/html_text.h"

namespace conformance {

std::string JsonDisplayText(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string text;
    for (const auto& item : value) {
      if (!text.empty()) text += ", ";
      text += JsonDisplayText(item);
    }
    return text;
  }
  if (value.is_object()) {
    std::string text;
    for (const auto& [key, item] : value.items()) {
      if (!text.empty()) text += ", ";
      text += key + "=" + JsonDisplayText(item);
    }
    return text;
  }
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string FieldText(const nlohmann::ordered_json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  return found == object.end() ? std::string() : JsonDisplayText(*found);
}

}  // namespace conformance
