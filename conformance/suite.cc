#include "suite.h"

#include "kernel_tier.h"
#include "model_tier.h"
#include "runtime_tier.h"
#include "scenario/scenario_units.h"
#include "stress_tier.h"
#include "validate/core_libraries.h"
#include "validate/emulated_release.h"
#include "validate/graph_session.h"
#include "validate/load_tier.h"
#include "validate/profiler_session.h"

namespace conformance {

std::vector<TestUnit> BuildSuite(const RunSettings& settings) {
  // Done here, in the parent, so every forked child inherits the core loaded under both
  // TensorFlow sonames and the audit's export list without paying for them again.
  validate::PreloadCoreLibraries();
  validate::CoreExports();
  // What TF_Version and TF_GetAllOpList answer in every unit: the profile's release.
  validate::EmulateProfileRelease(settings.profile);
  std::vector<TestUnit> units = validate::LoadTierUnits(settings);
  units.push_back(validate::GraphOptimizerUnit());
  units.push_back(validate::ProfilerSessionUnit());
  for (auto&& tier :
       {RuntimeTierUnits(settings), ScenarioUnits(settings), KernelTierUnits(settings),
        ModelTierUnits(settings), StressTierUnits(settings)}) {
    units.insert(units.end(), tier.begin(), tier.end());
  }
  return units;
}

}  // namespace conformance
