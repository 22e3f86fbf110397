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
  for (TestUnit& unit : validate::ProfilerSessionUnits()) units.push_back(std::move(unit));
  // The builders that parse scenario files run only for a tier the run may select (a scenario
  // file's `tier:` is runtime or stress). No prerequisite names a check of the units left out
  // (they are load and runtime checks), so no unit built here waits on one left out.
  const bool scenarios = settings.BuildsTier("runtime") || settings.BuildsTier("stress");
  for (auto&& tier :
       {RuntimeTierUnits(settings), scenarios ? ScenarioUnits(settings) : std::vector<TestUnit>{},
        settings.BuildsTier("kernels") ? KernelTierUnits(settings) : std::vector<TestUnit>{},
        settings.BuildsTier("models") ? ModelTierUnits(settings) : std::vector<TestUnit>{},
        StressTierUnits(settings)}) {
    units.insert(units.end(), tier.begin(), tier.end());
  }
  return units;
}

}  // namespace conformance
