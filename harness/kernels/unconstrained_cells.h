#pragma once
// A kernel registered without a constraint on the type attr naming its op's cells (DirectML's
// Bitcast, StatelessRandomGetKeyCounter) is the kernel TensorFlow picks for a node of that op at
// every dtype: no cell is its own, so without this it is never judged. It is judged at every
// dtype the op allows instead, as if the plugin had registered one kernel per dtype (the kernel
// tier's FindKernel still finds the unconstrained registration for each case's attrs); the
// record then says at which of them TensorFlow's CPU gave a result.
#include <vector>

#include "kernels/generated_cases.h"
#include "ops/registry.h"

namespace conformance::kernels {

// `kernels` followed by one kernel per dtype (with values in the suite) of the cell attr of each
// unconstrained kernel's op; its other type attrs without a default fixed to int32 where allowed
// (index dtypes), else their first allowed dtype with values, as the record's kernels hold one
// of them. A kernel of an op without type attrs, or one the registry lacks, gains none.
std::vector<RegisteredKernel> WithUnconstrainedCells(const std::vector<RegisteredKernel>& kernels,
                                                     const ops::OpRegistry& registry);

}  // namespace conformance::kernels
