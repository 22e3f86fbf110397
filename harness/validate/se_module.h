#pragma once
// The StreamExecutor module exactly as TensorFlow's core loads it (spec §3.2): the same calls
// in the same order, the same rules and messages. Unlike TensorFlow it does not stop at the
// first failure when going on is safe, so a vendor sees every problem in one run; TensorFlow's
// own verdict is the first failing TensorFlow-origin check in emission order.
#include <optional>
#include <string>
#include <vector>

#include "validate/check_log.h"
#include "validate/profile.h"
#include "validate/se_session.h"

namespace conformance::validate {

// Check ids RunSeModule emits for `profile`, in emission order.
std::vector<std::string> SeModuleCheckIds(const Profile& profile);

struct SeModuleOutcome {
  bool exported = false;                   // the plugin has SE_InitPlugin
  bool initialized = false;                // SE_InitPlugin returned OK
  std::optional<std::string> device_type;  // SP_Platform.type, when set
};

SeModuleOutcome RunSeModule(SeInitPluginFn init, const Profile& profile, CheckLog& log);

}  // namespace conformance::validate
