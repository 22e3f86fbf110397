#pragma once
// Whether the runtime layer can drive the TensorFlow generation the run emulates: it speaks
// only the 288-byte SP_StreamExecutor (TF 2.10 and later), so older profiles are unsupported.
#include <optional>
#include <string>
#include <string_view>

#include "model/test_unit.h"

namespace conformance::runtime {

// Why `settings.profile` cannot be driven (for a not_supported result), or nullopt if it can.
// `what` names the driver in the message ("the runtime checks", "scenarios").
std::optional<std::string> UnsupportedProfileReason(const RunSettings& settings, std::string_view what);

}  // namespace conformance::runtime
