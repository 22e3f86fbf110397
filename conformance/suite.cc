#include "suite.h"

#include "validate/core_libraries.h"
#include "validate/load_tier.h"

namespace conformance {

std::vector<TestUnit> BuildSuite(const RunSettings& settings) {
  // Done here, in the parent, so every forked child inherits the core loaded under both
  // TensorFlow sonames and the audit's export list without paying for them again.
  validate::PreloadCoreLibraries();
  validate::CoreExports();
  return validate::LoadTierUnits(settings);
}

}  // namespace conformance
