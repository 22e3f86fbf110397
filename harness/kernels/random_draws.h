#pragma once
// Stateful random ops (RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt)
// have no value TensorFlow's CPU could be compared with: their draws differ on every call. They
// are judged by what a user relies on instead: each draw has the requested shape and lies in the
// distribution's support, its mean and variance are the distribution's (within six standard
// errors, so a correct generator misses about once in 10^8 runs), and two steps of one kernel
// instance draw anew (TensorFlow reuses a node's kernel, and a dropout mask or an initializer
// that repeats itself is wrong data).
#include <optional>
#include <string>
#include <string_view>

#include "kernels/case_runner.h"
#include "kernels/host_tensor.h"

namespace conformance::kernels {

enum class Distribution { kUniformUnit, kStandardNormal, kTruncatedNormal, kUniformInt };

struct StatefulRandomOp {
  std::string_view op;
  std::string_view output_attr;  // the type attr of the draws: a cell's dtype
  Distribution distribution;
};

// The op's entry, or nullptr when `op` is not one of the stateful random ops judged by draws.
const StatefulRandomOp* FindStatefulRandomOp(std::string_view op);

// The case: a [64, 64] draw (`shape_dtype` for the shape input), seed attrs set (a graph-level
// seed, as tf.random.set_seed gives), [0, 1000) for the integer op.
CaseSpec DrawCase(const StatefulRandomOp& random_op, TF_DataType dtype, TF_DataType shape_dtype);

// What is wrong with one draw of `case_spec` (dtype, shape, support, mean, variance); nullopt
// when nothing is.
std::optional<std::string> JudgeDraw(const StatefulRandomOp& random_op, const CaseSpec& case_spec,
                                     const HostTensor& draw);

// What is wrong with two successive draws of one kernel instance: most elements equal.
std::optional<std::string> JudgeSuccessiveDraws(const HostTensor& first, const HostTensor& second);

}  // namespace conformance::kernels
