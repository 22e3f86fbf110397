#include "run/exit_code.h"

#include "model/outcome.h"

namespace conformance {

bool PluginNotLoaded(const std::vector<CheckResult>& results) {
  for (const CheckResult& result : results) {
    if (KeepsPluginFromLoading(result)) {
      return true;
    }
  }
  return false;
}

ExitCode VerdictExitCode(const RunReport& report) {
  if (!report.PluginLoaded()) return ExitCode::kPluginNotLoaded;
  if (report.Conformant()) return ExitCode::kConformant;
  return report.WantsOnlyADevice() ? ExitCode::kNoDevice : ExitCode::kNotConformant;
}

}  // namespace conformance
