#include "call_checks.h"

#include <string>

namespace conformance::bench {

bool Failed(benchmark::State& state, TF_Status* status, std::string_view callback) {
  if (TF_GetCode(status) == TF_OK) return false;
  const std::string message = std::string(callback) +
                              " failed: " + std::to_string(TF_GetCode(status)) + ": " +
                              TF_Message(status);
  state.SkipWithError(message.c_str());
  return true;
}

bool Failed(benchmark::State& state, const runtime::CallStatus& status) {
  if (status.ok()) return false;
  const std::string message = status.Describe();
  state.SkipWithError(message.c_str());
  return true;
}

}  // namespace conformance::bench
