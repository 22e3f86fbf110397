#pragma once
// When TensorFlow raises a status it refuses a plugin with. details[kTensorFlowFailsAt] =
// kAtFirstUse on a failure with a TensorFlow code: TensorFlow loads the plugin and raises the
// status only when the plugin is first used (its first op), so the loading goes on, and a status
// of the loading itself is what TensorFlow reports first (run/tensorflow_verdict.h).
#include <string>
#include <string_view>

#include "model/check_result.h"

namespace conformance {

inline constexpr std::string_view kTensorFlowFailsAt = "tensorflow_fails_at";
inline constexpr std::string_view kAtFirstUse = "first use";

inline bool FailsAtFirstUse(const CheckResult& result) {
  const auto it = result.details.find(std::string(kTensorFlowFailsAt));
  return it != result.details.end() && it->second == kAtFirstUse;
}

}  // namespace conformance
