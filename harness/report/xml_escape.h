#pragma once
// Escaping for XML 1.0. Check messages carry plugin-provided bytes (names, status
// messages), which may hold markup characters, control characters XML 1.0 cannot
// represent at all (not even as &#1;), or invalid UTF-8. Escaping must keep the document
// well-formed whatever the plugin wrote:
//  - & < > " ' become entities;
//  - tab, LF and CR become character references in attributes (attribute normalization
//    would otherwise turn them into spaces) and CR also in text (line-end normalization);
//  - other C0 controls, U+FFFE, U+FFFF and bytes that are not valid UTF-8 become the
//    visible text "\xNN" (or "\uFFFE"), so the reader still sees what was there.
#include <string>
#include <string_view>

namespace conformance {

enum class XmlContext { kText, kAttribute };

std::string XmlEscape(std::string_view text, XmlContext context);

}  // namespace conformance
