#include "kernels/tail_bounds.h"

#include <cmath>
#include <functional>

namespace conformance::kernels {
namespace {

// The smallest d in (0, limit) with exponent(d) >= target, for an exponent increasing in d
// (each Chernoff exponent is 0 at d = 0 and grows with it). Bisection: 200 halvings reach a
// double's resolution.
double Solve(const std::function<double(double)>& exponent, double target, double limit) {
  double low = 0, high = limit;
  for (int i = 0; i < 200; ++i) {
    const double middle = (low + high) / 2;
    (exponent(middle) >= target ? high : low) = middle;
  }
  return high;
}

}  // namespace

RelativeBounds GammaSumBounds(double shape, double miss) {
  const double target = std::log(2 / miss) / shape;
  return {Solve([](double d) { return -d - std::log1p(-d); }, target, 1.0),
          Solve([](double d) { return d - std::log1p(d); }, target, 1e6)};
}

RelativeBounds PoissonSumBounds(double mean, double miss) {
  const double target = std::log(2 / miss) / mean;
  return {Solve([](double d) { return (1 - d) * std::log1p(-d) + d; }, target, 1.0),
          Solve([](double d) { return (1 + d) * std::log1p(d) - d; }, target, 1e6)};
}

double HoeffdingMeanBound(double width, double count, double miss) {
  return width * std::sqrt(std::log(2 / miss) / (2 * count));
}

}  // namespace conformance::kernels
