#pragma once
// "Did you mean ...?" suggestions for misspelt keys and names in user input.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

// Levenshtein distance (insertions, deletions, substitutions all cost 1).
std::size_t EditDistance(std::string_view a, std::string_view b);

// The closest candidate, if it is close enough to be a plausible typo: at most 2 edits and
// fewer edits than half the candidate's length (so "id" is not suggested for "xy").
std::optional<std::string> ClosestMatch(std::string_view word,
                                        const std::vector<std::string>& candidates);

}  // namespace conformance
