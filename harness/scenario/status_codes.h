#pragma once
// TF_Code values by the names scenario files use (INVALID_ARGUMENT, ...), so expected
// statuses read like TensorFlow's own error names. Kept apart from the C headers: scenario
// files and messages only ever need the names.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conformance::scenario {

inline constexpr int kCodeOk = 0;
inline constexpr int kCodeInvalidArgument = 3;
inline constexpr int kCodeResourceExhausted = 8;

std::optional<int> CodeFromName(std::string_view name);
std::string CodeName(int code);  // "OK", "INVALID_ARGUMENT", or "code 42" when unknown
const std::vector<std::string>& CodeNames();

}  // namespace conformance::scenario
