#pragma once
// The C++ runtime checks, one function per area (each file of this folder); runtime_tier.cc
// puts them together.
#include <vector>

#include "model/test_unit.h"

namespace conformance::runtime_checks {

std::vector<TestUnit> MemoryUnits();
std::vector<TestUnit> HostMemoryUnits();
std::vector<TestUnit> DeallocateUnits();
std::vector<TestUnit> SyncUnits();
std::vector<TestUnit> MemcpyUnits();
std::vector<TestUnit> CallbackUnits();
std::vector<TestUnit> EventUnits();
std::vector<TestUnit> StreamUnits();
std::vector<TestUnit> StatsUnits();
std::vector<TestUnit> DeviceUnits();
std::vector<TestUnit> StatusUnits();

}  // namespace conformance::runtime_checks
