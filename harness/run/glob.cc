#include "run/glob.h"

#include <cstddef>

namespace conformance {

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Greedy scan that remembers the last '*': on a mismatch the star absorbs one more
  // character. Linear in practice and never recursive, so hostile patterns cannot blow
  // the stack.
  constexpr std::size_t kNone = std::string_view::npos;
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = kNone;
  std::size_t star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != kNone) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace conformance
