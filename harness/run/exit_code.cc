#include "run/exit_code.h"

#include <string_view>

#include "model/outcome.h"

namespace conformance {

bool PluginNotLoaded(const std::vector<CheckResult>& results) {
  constexpr std::string_view kLibraryPrefix = "load.library.";
  for (const CheckResult& result : results) {
    if (result.id.starts_with(kLibraryPrefix) && BreaksConformance(result.outcome)) {
      return true;
    }
  }
  return false;
}

ExitCode VerdictExitCode(const std::vector<CheckResult>& results) {
  if (PluginNotLoaded(results)) return ExitCode::kPluginNotLoaded;
  for (const CheckResult& result : results) {
    if (BreaksConformance(result.outcome)) return ExitCode::kNotConformant;
  }
  return ExitCode::kConformant;
}

}  // namespace conformance
