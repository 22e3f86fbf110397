#pragma once
// gtest-style --filter over check ids: POSITIVE[-NEGATIVE], each a ':'-separated list of
// globs. An id is selected when it matches some positive pattern and no negative one.
// Same corner cases as gtest: a filter that starts with '-' has the positive part '*';
// everything after the first '-' is the negative part; an empty pattern matches only the
// empty id, so an empty filter selects nothing.
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

class CheckFilter {
 public:
  CheckFilter() : CheckFilter("*") {}
  explicit CheckFilter(std::string_view text);

  bool Matches(std::string_view check_id) const;
  // The filter as the user wrote it (reported back in JSON and JUnit).
  const std::string& text() const { return text_; }
  // The globs before the first '-' (for error messages about a filter that matches nothing).
  const std::vector<std::string>& positive_patterns() const { return positive_; }

 private:
  static bool AnyMatches(const std::vector<std::string>& patterns, std::string_view id);

  std::string text_;
  std::vector<std::string> positive_;
  std::vector<std::string> negative_;
};

}  // namespace conformance
