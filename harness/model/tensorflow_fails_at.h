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
// details[kTensorFlowFailsAt] = kNever on a failure with a TensorFlow code that the emulated
// release does not refuse the plugin for: TensorFlow 2.7 to 2.11 log a failing profiler module
// ("Failed to load pluggable profiler module due to ...") and load the plugin, 2.5 and 2.6 never
// call TF_InitProfiler (profile fact `profiler_module`). The plugin's defect stands; it is only
// out of TensorFlow's load verdict.
inline constexpr std::string_view kNever = "never";

// details[kPluginStatusDetail] = "1" on a failure TensorFlow refuses the plugin for with a status
// the plugin makes itself (an init function that cannot open its library there returns its own
// code and text): the verdict has no code, says "plugin_status": true, and its message is the
// cause that status carries (glibc's dlerror text).
inline constexpr std::string_view kPluginStatusDetail = "plugin_status";
// details[kMessageAlternativesDetail]: other texts TensorFlow's refusal may carry, one a line,
// where which one it prints depends on what the release exports (dlopen names the first symbol
// it cannot bind, and which of a plugin's C++ imports a release binds is not known here).
inline constexpr std::string_view kMessageAlternativesDetail = "tensorflow_message_alternatives";

inline bool FailsAtFirstUse(const CheckResult& result) {
  const auto it = result.details.find(std::string(kTensorFlowFailsAt));
  return it != result.details.end() && it->second == kAtFirstUse;
}

inline bool TensorFlowNeverFails(const CheckResult& result) {
  const auto it = result.details.find(std::string(kTensorFlowFailsAt));
  return it != result.details.end() && it->second == kNever;
}

}  // namespace conformance
