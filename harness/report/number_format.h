#pragma once
// Locale-independent number formatting shared by the reporters.
#include <string>

namespace conformance {

// Seconds with millisecond precision, e.g. "0.012" (JUnit's time attribute, console).
std::string FormatSeconds(double seconds);

}  // namespace conformance
