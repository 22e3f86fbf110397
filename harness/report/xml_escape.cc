#include "report/xml_escape.h"

#include <cstdint>
#include <cstdio>

namespace conformance {
namespace {

void AppendByteEscape(std::string& out, unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "\\x%02X", byte);
  out += text;
}

// Length of the valid UTF-8 sequence at `text[0]` and its code point; 0 when invalid
// (truncated, overlong, surrogate, beyond U+10FFFF).
std::size_t DecodeUtf8(std::string_view text, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  std::uint32_t minimum = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code_point = lead & 0x1F;
    minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code_point = lead & 0x0F;
    minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code_point = lead & 0x07;
    minimum = 0x10000;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3F);
  }
  if (code_point < minimum || code_point > 0x10FFFF) return 0;
  if (code_point >= 0xD800 && code_point <= 0xDFFF) return 0;
  return length;
}

}  // namespace

std::string XmlEscape(std::string_view text, XmlContext context) {
  const bool attribute = context == XmlContext::kAttribute;
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::uint32_t code_point = 0;
    const std::size_t length = DecodeUtf8(text.substr(i), code_point);
    if (length == 0) {
      AppendByteEscape(out, static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    switch (code_point) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      case 0xFFFE: out += "\\uFFFE"; break;
      case 0xFFFF: out += "\\uFFFF"; break;
      default:
        if (code_point < 0x20) {
          AppendByteEscape(out, static_cast<unsigned char>(code_point));
        } else {
          out.append(text.substr(i, length));
        }
    }
    i += length;
  }
  return out;
}

}  // namespace conformance
