#include "cli/number_option.h"

#include <charconv>

namespace conformance {

NumberParse ParseDecimal(std::string_view text, std::uint64_t minimum, std::uint64_t maximum,
                         std::string_view unit) {
  const std::string range = " (allowed: " + std::to_string(minimum) + " to " +
                            std::to_string(maximum) + (unit.empty() ? "" : " ") +
                            std::string(unit) + ")";
  const std::string quoted = "'" + std::string(text) + "'";
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    const bool negative = text.size() > 1 && text[0] == '-' &&
                          text.find_first_not_of("0123456789", 1) == std::string_view::npos;
    return {std::nullopt, quoted + (negative ? " is negative" : " is not a number") + range};
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < minimum ||
      value > maximum) {
    return {std::nullopt, quoted + " is out of range" + range};
  }
  return {value, ""};
}

}  // namespace conformance
