#include "scenario/status_codes.h"

namespace conformance::scenario {

const std::vector<std::string>& CodeNames() {
  // Indexed by TF_Code value (tensorflow/c/tf_status.h).
  static const std::vector<std::string> names = {"OK",
                                                 "CANCELLED",
                                                 "UNKNOWN",
                                                 "INVALID_ARGUMENT",
                                                 "DEADLINE_EXCEEDED",
                                                 "NOT_FOUND",
                                                 "ALREADY_EXISTS",
                                                 "PERMISSION_DENIED",
                                                 "RESOURCE_EXHAUSTED",
                                                 "FAILED_PRECONDITION",
                                                 "ABORTED",
                                                 "OUT_OF_RANGE",
                                                 "UNIMPLEMENTED",
                                                 "INTERNAL",
                                                 "UNAVAILABLE",
                                                 "DATA_LOSS",
                                                 "UNAUTHENTICATED"};
  return names;
}

std::optional<int> CodeFromName(std::string_view name) {
  const auto& names = CodeNames();
  for (std::size_t code = 0; code < names.size(); ++code) {
    if (names[code] == name) return static_cast<int>(code);
  }
  return std::nullopt;
}

std::string CodeName(int code) {
  const auto& names = CodeNames();
  if (code >= 0 && static_cast<std::size_t>(code) < names.size()) return names[code];
  return "code " + std::to_string(code);
}

}  // namespace conformance::scenario
