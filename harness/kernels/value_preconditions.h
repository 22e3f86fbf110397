#pragma once
// Value preconditions an op definition cannot state, for the cases generated from it
// (generated_cases.h): inputs whose values must relate to each other for the op's result to be
// defined. Outside them TensorFlow's documentation leaves the result unspecified, so its CPU
// is no oracle there and a kernel must not be judged on them. ClipByValue's bounds are ordered
// element-wise (clip_value_min <= clip_value_max); a generated case had min > max in about half
// of its elements.
#include <string>
#include <utility>
#include <vector>

#include "kernels/host_tensor.h"

namespace conformance::kernels {

// Makes `inputs` (named as `names`, in the op's order) meet `op`'s preconditions: a pair of
// bounds out of order is swapped, a NaN bound takes the other bound's value (0 when both are
// NaN). Inputs of other ops are left alone.
void MeetValuePreconditions(const std::string& op,
                            const std::vector<std::pair<std::string, TF_DataType>>& names,
                            std::vector<HostTensor>& inputs);

}  // namespace conformance::kernels
