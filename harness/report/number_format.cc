#include "report/number_format.h"

#include <charconv>
#include <cmath>

namespace conformance {

std::string FormatSeconds(double seconds) {
  // std::to_chars never consults the locale, unlike printf("%f").
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  char text[64];
  const auto [end, error] =
      std::to_chars(text, text + sizeof text, seconds, std::chars_format::fixed, 3);
  if (error != std::errc()) return "0.000";
  return std::string(text, end);
}

}  // namespace conformance
