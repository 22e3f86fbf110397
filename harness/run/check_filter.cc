#include "run/check_filter.h"

#include "run/glob.h"

namespace conformance {
namespace {

std::vector<std::string> SplitPatterns(std::string_view list) {
  std::vector<std::string> patterns;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = list.find(':', start);
    patterns.emplace_back(list.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return patterns;
}

}  // namespace

CheckFilter::CheckFilter(std::string_view text) : text_(text) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    positive_ = SplitPatterns(text);
    return;
  }
  const std::string_view positive = text.substr(0, dash);
  positive_ = SplitPatterns(positive.empty() ? std::string_view("*") : positive);
  negative_ = SplitPatterns(text.substr(dash + 1));
}

bool CheckFilter::AnyMatches(const std::vector<std::string>& patterns, std::string_view id) {
  for (const std::string& pattern : patterns) {
    if (GlobMatch(pattern, id)) return true;
  }
  return false;
}

bool CheckFilter::Matches(std::string_view check_id) const {
  return AnyMatches(positive_, check_id) && !AnyMatches(negative_, check_id);
}

}  // namespace conformance
