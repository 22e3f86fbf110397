#pragma once
// Tolerances for the mean of random draws whose miss rate is proven, not estimated: Chernoff
// bounds for sums of Gamma and Poisson draws (a sum of n Gamma(a) draws is Gamma(n a), of n
// Poisson(l) draws Poisson(n l), so the bounds hold exactly, at any n), and Hoeffding's for
// draws within [low, high]. A correct generator's mean falls outside the tolerance with
// probability at most `miss` (each side `miss / 2`), so a judge built on them fails a correct
// plugin less often than `miss` per comparison, whatever its random bits.

namespace conformance::kernels {

// The relative distance d below and above a sum's expectation within which the sum stays
// except with probability miss / 2 on each side.
struct RelativeBounds {
  double below, above;
};

// A sum of Gamma(shape) draws (its own shape `shape`, the expectation `shape`):
// P(S >= (1 + d) k) <= exp(-k (d - ln(1 + d))), P(S <= (1 - d) k) <= exp(-k (-d - ln(1 - d))).
RelativeBounds GammaSumBounds(double shape, double miss);

// A sum of Poisson draws of expectation `mean`: P(S >= (1 + d) m) <= exp(-m h(d)),
// P(S <= (1 - d) m) <= exp(-m h(-d)), h(d) = (1 + d) ln(1 + d) - d.
RelativeBounds PoissonSumBounds(double mean, double miss);

// Hoeffding: the mean of n independent draws within a range of width `width` strays from its
// expectation by more than the result with probability at most miss:
// width * sqrt(ln(2 / miss) / (2 n)).
double HoeffdingMeanBound(double width, double count, double miss);

}  // namespace conformance::kernels
