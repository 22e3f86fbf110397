#pragma once
// A scenario's matrix cell -> the concrete case to run: attrs with the dtype set, every input
// filled (seeded per case), output dtypes, and the literal expectation when there is one.
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/case_runner.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

core::AttrMap CaseAttrs(const KernelScenario& scenario, TF_DataType dtype);
CaseSpec BuildCase(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape_index,
                   std::uint64_t seed);
// The literal outputs of an `expect: {outputs: ...}` scenario, in the case's output dtypes.
std::vector<HostTensor> LiteralOutputs(const KernelScenario& scenario, TF_DataType dtype);

}  // namespace conformance::kernels
