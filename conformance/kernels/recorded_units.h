#pragma once
// The kernel tier's units for the registered (op, dtype) cells no built-in scenario covers:
// their generated cases (harness/kernels/generated_cases.h) run on the plugin's device and are
// judged against what TensorFlow's CPU computed for the same cases, from the recorded oracle
// (harness/kernels/recorded_oracle.h), so no TensorFlow needs to be installed. One unit per op,
// "kernel.<Op>.recorded", one check per cell, "kernel.<Op>.<dtype>.generated" (the ids
// --tensorflow gives the same cells); plus one unit, "kernel.not_generated", that says which
// registered cells get no generated case and why.
#include <vector>

#include "kernels/registered_kernels.h"
#include "model/test_unit.h"

namespace conformance {

// The units for the cells of `listing`, the plugin's registrations (kernels::ListKernels, listed
// in a child process while the suite is built: that bring-up is the whole cost for a plugin
// whose every cell a scenario covers, such as the reference plugin). Empty unless
// settings.judge_from_record and the registrations were listed (`listing` not null).
std::vector<TestUnit> RecordedOracleUnits(const RunSettings& settings,
                                          const kernels::KernelListing* listing);

}  // namespace conformance
