#pragma once
// Strict decimal parsing for numeric options: the whole text must be digits (no sign, no
// spaces, no suffix), so "-1" or "12abc" are refused rather than wrapped or truncated, and
// the message says which of "not a number" and "out of range" applies.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conformance {

struct NumberParse {
  std::optional<std::uint64_t> value;
  std::string problem;  // set when value is empty: "'abc' is not a number", ...
};

// A decimal in [minimum, maximum]; `unit` ("milliseconds") is named in the allowed range.
NumberParse ParseDecimal(std::string_view text, std::uint64_t minimum, std::uint64_t maximum,
                         std::string_view unit = {});

}  // namespace conformance
