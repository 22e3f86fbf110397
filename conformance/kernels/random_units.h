#pragma once
// The kernel tier's units for the stateful random ops a plugin registers
// (harness/kernels/random_draws.h): one unit, "kernel.random_draws", one check per registered
// cell, "kernel.<Op>.<dtype>.random_draws". No recorded value can judge a draw; its shape,
// support, moments, and a second step's fresh draw can.
#include <vector>

#include "kernels/generated_cases.h"
#include "model/test_unit.h"

namespace conformance {

// Empty when `kernels` (a plugin's registrations) hold no stateful random op.
std::vector<TestUnit> RandomDrawUnits(const std::vector<kernels::RegisteredKernel>& kernels);

}  // namespace conformance
