// XML escaping keeps any byte sequence a plugin produces well-formed.
#include "report/xml_escape.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

TEST(XmlEscapeTest, MarkupCharacters) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'", XmlContext::kText), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape("]]>", XmlContext::kText), "]]&gt;");
}

TEST(XmlEscapeTest, WhitespaceSurvivesInAttributesAsReferences) {
  EXPECT_EQ(XmlEscape("a\tb\nc\rd", XmlContext::kAttribute), "a&#9;b&#10;c&#13;d");
  EXPECT_EQ(XmlEscape("a\tb\nc\rd", XmlContext::kText), "a\tb\nc&#13;d");
}

TEST(XmlEscapeTest, ForbiddenControlCharactersBecomeVisibleText) {
  EXPECT_EQ(XmlEscape(std::string("a\x01"
                                  "b\x1b[0m",
                                  7),
                      XmlContext::kText),
            "a\\x01b\\x1B[0m");
  EXPECT_EQ(XmlEscape(std::string("nul\0end", 7), XmlContext::kText), "nul\\x00end");
}

TEST(XmlEscapeTest, InvalidUtf8BecomesByteEscapes) {
  EXPECT_EQ(XmlEscape("bad \xff\xfe!", XmlContext::kText), "bad \\xFF\\xFE!");
  EXPECT_EQ(XmlEscape("trunc \xe2\x82", XmlContext::kText), "trunc \\xE2\\x82");
  EXPECT_EQ(XmlEscape("overlong \xc0\xaf", XmlContext::kText), "overlong \\xC0\\xAF");
  EXPECT_EQ(XmlEscape("surrogate \xed\xa0\x80", XmlContext::kText), "surrogate \\xED\\xA0\\x80");
}

TEST(XmlEscapeTest, ValidUtf8PassesThrough) {
  EXPECT_EQ(XmlEscape("µs \xe2\x82\xac \xf0\x9f\x98\x80", XmlContext::kText),
            "µs \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(XmlEscapeTest, NonCharactersFFFEAndFFFFAreEscaped) {
  EXPECT_EQ(XmlEscape("\xef\xbf\xbe\xef\xbf\xbf", XmlContext::kText), "\\uFFFE\\uFFFF");
}

}  // namespace
}  // namespace conformance
