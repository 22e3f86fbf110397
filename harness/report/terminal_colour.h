#pragma once
// Whether console output may use ANSI colour: only on a terminal, never when NO_COLOR is
// set to a non-empty value (https://no-color.org) or TERM is "dumb". Piped output (CI
// logs, files) stays plain so it greps and diffs cleanly.
#include <string_view>

namespace conformance {

// The decision itself, from its inputs (testable without a terminal).
bool ColourWanted(bool is_terminal, const char* no_color, const char* term);

// For a file descriptor of this process, from the real environment.
bool ColourWantedFor(int fd);

// SGR sequences; wrap only when colour is on.
namespace ansi {
inline constexpr std::string_view kReset = "\033[0m";
inline constexpr std::string_view kBold = "\033[1m";
inline constexpr std::string_view kDim = "\033[2m";
inline constexpr std::string_view kRed = "\033[31m";
inline constexpr std::string_view kGreen = "\033[32m";
inline constexpr std::string_view kYellow = "\033[33m";
inline constexpr std::string_view kCyan = "\033[36m";
}  // namespace ansi

}  // namespace conformance
