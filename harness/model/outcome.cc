#include "model/outcome.h"

#include <array>
#include <utility>

namespace conformance {
namespace {

// The spelling in reports and in the JSON that crosses the pipe; stable, never translated.
constexpr std::array<std::pair<Outcome, std::string_view>, 10> kOutcomeNames{{
    {Outcome::kPass, "pass"},
    {Outcome::kFail, "fail"},
    {Outcome::kWarning, "warning"},
    {Outcome::kNotSupported, "not_supported"},
    {Outcome::kCrash, "crash"},
    {Outcome::kTimeout, "timeout"},
    {Outcome::kWaived, "waived"},
    {Outcome::kUnexpectedPass, "unexpected_pass"},
    {Outcome::kSkipped, "skipped"},
    {Outcome::kFlaky, "flaky"},
}};

constexpr std::array<std::pair<Origin, std::string_view>, 2> kOriginNames{{
    {Origin::kTensorFlow, "tensorflow"},
    {Origin::kStricter, "stricter"},
}};

}  // namespace

std::string_view ToString(Outcome outcome) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (value == outcome) return name;
  }
  return "unknown";
}

std::optional<Outcome> OutcomeFromString(std::string_view text) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

bool IsFailure(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kCrash || outcome == Outcome::kTimeout;
}

bool BreaksConformance(Outcome outcome) {
  switch (outcome) {
    case Outcome::kFail:
    case Outcome::kCrash:
    case Outcome::kTimeout:
    case Outcome::kUnexpectedPass:
    // As the runners of Vulkan's CTS do: a flake fails the gate unless it is waived as one.
    case Outcome::kFlaky: return true;
    case Outcome::kPass:
    case Outcome::kWarning:
    case Outcome::kNotSupported:
    case Outcome::kWaived:
    case Outcome::kSkipped: return false;
  }
  return true;  // an out-of-range value is a defect somewhere: never let it pass silently
}

std::string_view ToString(Origin origin) {
  for (const auto& [value, name] : kOriginNames) {
    if (value == origin) return name;
  }
  return "unknown";
}

std::optional<Origin> OriginFromString(std::string_view text) {
  for (const auto& [value, name] : kOriginNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace conformance
