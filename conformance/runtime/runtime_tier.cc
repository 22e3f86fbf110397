#include "runtime_tier.h"

#include "runtime_units.h"

namespace conformance {

std::vector<TestUnit> RuntimeTierUnits(const RunSettings& /*settings*/) {
  std::vector<TestUnit> units;
  for (auto&& part :
       {runtime_checks::MemoryUnits(), runtime_checks::HostMemoryUnits(),
        runtime_checks::DeallocateUnits(), runtime_checks::SyncUnits(),
        runtime_checks::MemcpyUnits(), runtime_checks::CallbackUnits(),
        runtime_checks::EventUnits(), runtime_checks::StreamUnits(), runtime_checks::StatsUnits(),
        runtime_checks::DeviceUnits(), runtime_checks::StatusUnits()}) {
    units.insert(units.end(), part.begin(), part.end());
  }
  return units;
}

}  // namespace conformance
