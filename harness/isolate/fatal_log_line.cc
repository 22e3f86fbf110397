#include "isolate/fatal_log_line.h"

namespace conformance::isolate {
namespace {

// "<anything without ']'>: F <where>] <message>": TensorFlow prefixes the severity letter with
// the date and time and a colon.
std::optional<FatalLogLine> ParseLine(std::string_view line) {
  constexpr std::string_view kFatal = ": F ";
  const auto at = line.find(kFatal);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = line.substr(at + kFatal.size());
  const auto close = rest.find("] ");
  if (close == std::string_view::npos || close == 0) return std::nullopt;
  const std::string_view where = rest.substr(0, close);
  if (where.find(' ') != std::string_view::npos) return std::nullopt;
  return FatalLogLine{std::string(where), std::string(rest.substr(close + 2))};
}

}  // namespace

std::optional<FatalLogLine> LastFatalLogLine(std::string_view output) {
  std::optional<FatalLogLine> last;
  while (!output.empty()) {
    const auto end = output.find('\n');
    const std::string_view line = output.substr(0, end);
    if (auto parsed = ParseLine(line)) last = std::move(parsed);
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + 1);
  }
  return last;
}

}  // namespace conformance::isolate
