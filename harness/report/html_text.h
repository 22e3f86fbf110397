#pragma once
// Text helpers of the HTML report. Everything a report carries may come from the plugin
// (messages, captured output, names), so every piece of text goes through Html() or
// HtmlAttribute(): XML escaping (xml_escape.h) is also correct HTML escaping, and keeps a
// hostile plugin from closing a tag or opening a <script>.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/xml_escape.h"

namespace conformance {

inline std::string Html(std::string_view text) { return XmlEscape(text, XmlContext::kText); }
inline std::string HtmlAttribute(std::string_view text) {
  return XmlEscape(text, XmlContext::kAttribute);
}

// Any JSON value as text for a person: strings as they are, arrays joined with ", ", objects
// as "k=v" pairs, null as "". Not escaped.
std::string JsonDisplayText(const nlohmann::ordered_json& value);

// object[key] as text when present (JsonDisplayText), else "".
std::string FieldText(const nlohmann::ordered_json& object, const char* key);

}  // namespace conformance
