#include "kernels/value_distance.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

// Three significant digits: enough to compare a distance with a tolerance.
std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Doubles in an order where adjacent values differ by one (negative values mirrored below
// zero), so the ULP distance is a subtraction that cannot overflow.
std::uint64_t OrderedBits(double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
  return (bits & kSign) != 0 ? kSign - (bits & ~kSign) : kSign + bits;
}

std::uint64_t DoubleUlps(double a, double b) {
  const std::uint64_t x = OrderedBits(a), y = OrderedBits(b);
  return x > y ? x - y : y - x;
}

}  // namespace

ValueDistance MeasureDistance(TF_DataType dtype, double expected, double actual) {
  dtype = ComplexPartDtype(dtype);  // a complex mismatch names one part (complex_values.h)
  ValueDistance distance;
  distance.absolute = std::fabs(actual - expected);
  if (!std::isfinite(expected) || !std::isfinite(actual)) return distance;
  if (expected == actual) {
    distance.relative = 0;
    if (IsFloating(dtype)) distance.ulp = 0;
    return distance;
  }
  distance.relative = expected == 0 ? std::numeric_limits<double>::infinity()
                                    : distance.absolute / std::fabs(expected);
  if (dtype == TF_DOUBLE) {
    distance.ulp = DoubleUlps(expected, actual);
  } else if (IsFloating(dtype)) {
    distance.ulp = UlpDistance(dtype, expected, actual);
  }
  return distance;
}

std::string ToleranceText(const Tolerance& tolerance) {
  if (tolerance.exact()) return "exact";
  return "rtol=" + Short(tolerance.rtol) + " atol=" + Short(tolerance.atol) +
         " ulp=" + std::to_string(tolerance.ulp);
}

std::string DistanceText(const ValueDistance& distance) {
  if (!distance.relative) return "n/a (NaN or infinity)";
  const std::string relative = "relative " + Short(*distance.relative);
  if (distance.ulp) return std::to_string(*distance.ulp) + " ULP, " + relative;
  return "off by " + Short(distance.absolute) + ", " + relative;
}

}  // namespace conformance::kernels
