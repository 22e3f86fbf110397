#pragma once
// Shell-style globs as gtest's --gtest_filter uses them: '*' matches any run of characters
// (including none and including '.'), '?' exactly one character, everything else itself.
#include <string_view>

namespace conformance {

bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace conformance
