#pragma once
// Stateful random ops have no value TensorFlow's CPU could be compared with: their draws differ
// on every call (a second call of one kernel instance with the same seeds draws anew). They are
// judged by what TensorFlow guarantees and a user relies on instead, on a few fixed cases per
// cell: each draw's dtype and shape, its support (a class of logit -inf never drawn, a sampled
// candidate within [0, range_max), a crop inside the image), and where the distribution has
// one, its mean or variance within a bound a correct generator misses less than once in 10^6
// runs (random_samples.h, random_choices.h, tail_bounds.h); and two steps of one kernel instance
// draw anew (TensorFlow reuses a node's kernel, and a dropout mask or an initializer that
// repeats itself is wrong data). Nothing depends on the plugin's random bits beyond those
// bounds: a correct generator of other bits passes too.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/case_runner.h"
#include "kernels/host_tensor.h"

namespace conformance::kernels {

// A registration's type constraints (attr -> TF_DataType), as RegisteredKernel holds them.
using TypeConstraints = std::vector<std::pair<std::string, int>>;

// How one kind of draw is made and judged.
struct DrawKind {
  // The cases of one cell (the draws' dtype), the op's other type attrs from `types` where the
  // registration fixes them.
  std::vector<CaseSpec> (*cases)(TF_DataType dtype, const TypeConstraints& types);
  // What is wrong with one step's outputs (every output set, as many as the case's); nullopt
  // when nothing is.
  std::optional<std::string> (*judge)(const CaseSpec& spec, const Outputs& draw);
  // What is wrong with two steps of one kernel instance (the same draw again); nullptr for an
  // op whose result is no draw at all (AllCandidateSampler returns every class).
  std::optional<std::string> (*successive)(const CaseSpec& spec, const Outputs& first,
                                           const Outputs& second);
};

struct StatefulRandomOp {
  std::string_view op;
  // The type attr of the draws, naming a cell; empty for an op of fixed dtypes (the candidate
  // samplers: int64 classes), whose one cell is `fixed_dtype`.
  std::string_view output_attr;
  TF_DataType fixed_dtype;
  const DrawKind* kind;
};

// The op's entry, or nullptr when `op` is not one of the stateful random ops judged by draws.
const StatefulRandomOp* FindStatefulRandomOp(std::string_view op);
// Every one, in the order the kernel tier and the measuring tool take them.
const std::vector<StatefulRandomOp>& StatefulRandomOps();

// The cell's cases (fixed seed attrs, as tf.random.set_seed gives).
std::vector<CaseSpec> DrawCases(const StatefulRandomOp& random_op, TF_DataType dtype,
                                const TypeConstraints& types);

// One step's outputs judged: every output set, then the kind's judgement.
std::optional<std::string> JudgeDraw(const StatefulRandomOp& random_op, const CaseSpec& spec,
                                     const Outputs& draw);

// Two steps of one kernel instance judged: nullopt when the second drew anew (or the op draws
// nothing).
std::optional<std::string> JudgeSuccessiveDraws(const StatefulRandomOp& random_op,
                                                const CaseSpec& spec, const Outputs& first,
                                                const Outputs& second);

// The rule most kinds use: half or more of output `output`'s elements equal in both steps is a
// generator started over. Each kind's cases make a fresh draw repeat an element with a chance
// well below one half (a half's 1024 values in [0.5, 1) are the coarsest, a Poisson(0.5) draw
// repeats with chance 0.47 but shares the tensor with wider ones), so a correct generator
// reaches half by a binomial tail below 10^-20.
std::optional<std::string> MostlyRepeated(const Outputs& first, const Outputs& second,
                                          std::size_t output);

// The registration's constraint on `attr`, else `otherwise` (the op's default).
TF_DataType TypeOr(const TypeConstraints& types, std::string_view attr, TF_DataType otherwise);

// A tensor of `values` rounded to `dtype`.
HostTensor Values(TF_DataType dtype, const core::Shape& shape, const std::vector<double>& values);

// "output 'name' has dtype X, not Y" / "... shape [..], not [..]"; nullopt when both are right.
std::optional<std::string> DtypeAndShape(const HostTensor& tensor, std::string_view name,
                                         TF_DataType dtype, const core::Shape& shape);

// The input `name` of `spec` (the judges read a case's parameters back from its inputs).
const HostTensor& InputOf(const CaseSpec& spec, std::string_view name);

// A number as a person reads it in a judgement ("0.5", "1000000", "-inf").
std::string DrawNumber(double value);

// The int attr `name` of `spec` (0 when unset).
std::int64_t IntAttr(const CaseSpec& spec, std::string_view name);

}  // namespace conformance::kernels
