#pragma once
// Draws of numbers from distributions given by input tensors (random_draws.h judges them), each
// held to what TensorFlow 2.21.0's CPU guarantees, measured on its kernels
// (tests/tensorflow_oracle/random_draws_in_cpu.py):
// - Multinomial: [4,1000] class indices of output_dtype (int64, and int32 in a case of its own)
//   in [0, 10); a class whose logit is -inf is never drawn (one row has a single finite logit:
//   every draw is that class).
// - RandomGamma: [4096,3] draws for alpha [0.5, 1, 4], each positive and finite (half: >= 0, a
//   draw below 2^-25 rounds to 0), each column's mean within a Chernoff bound of alpha.
// - RandomPoissonV2: [4096,3] draws for rate [0.5, 4, 30], non-negative integers in any output
//   dtype, each column's mean within a Chernoff bound of the rate. RandomPoisson, the op before
//   it (rates of the draws' floating dtype, no R attr), is held to the same: TensorFlow 2.21.0
//   refuses its nodes (UNIMPLEMENTED, removed at GraphDef version 25), and its cases are
//   measured on RandomPoissonV2 with R = dtype (random_draws_in_cpu.py's stand-in).
// - ParameterizedTruncatedNormal: [4,1024], row r within [minvals[r], maxvals[r]] (two rows cut
//   near the mean, one in a tail two to three standard deviations out), each row's mean within
//   Hoeffding's bound of the truncated normal's mean.
// - NonDeterministicInts: a [64,64] draw of the requested dtype, its elements mostly distinct.
// Every bound misses a correct generator with probability below 10^-8 per comparison
// (tail_bounds.h), so at most 10^-7 per cell.
#include "kernels/random_draws.h"

namespace conformance::kernels {

extern const DrawKind kCategoricalDraws;
extern const DrawKind kGammaDraws;
extern const DrawKind kPoissonDraws;
extern const DrawKind kRatePoissonDraws;
extern const DrawKind kBoundedNormalDraws;
extern const DrawKind kNondeterministicInts;

// The mean of the normal (mean, stdev) cut to [low, high].
double TruncatedNormalMean(double mean, double stdev, double low, double high);

}  // namespace conformance::kernels
