#pragma once
// The kernel tier: one test unit per op that kernel scenarios cover (built-in
// conformance/kernels/*.yaml plus vendor files under --scenarios). Each unit runs every case of
// the op's scenarios on the candidate's device, compares them with the reference plugin or the
// scenario's literal values, and then checks how the kernel behaves (inputs, leaks, repeat
// runs, stream ordering, failures injected by the core).
#include <string>
#include <vector>

#include "model/test_unit.h"

namespace conformance {

std::vector<TestUnit> KernelTierUnits(const RunSettings& settings);

// The per-op checks every unit declares after its case checks, e.g. "kernel.AddV2.leaks",
// with their catalogue texts (specs/checks/kernels.yaml is generated from these and the
// built-in scenarios by kernel_catalogue).
struct KernelPropertyDoc {
  std::string name;  // the last id component
  std::string rule, tensorflow, fix;
  std::string consequence;  // "<kind>: <text>", see specs/checks/README.md
};
const std::vector<KernelPropertyDoc>& KernelPropertyDocs();
const std::vector<std::string>& KernelPropertyChecks();

}  // namespace conformance
