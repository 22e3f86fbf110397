#pragma once
// How far a wrong value is from the expected one, and the tolerance it was held to, in the
// words a value failure states them: "tolerance rtol=1e-05 atol=1e-05 ulp=0; off by 12 ULP,
// relative 3.1e-04". A vendor reads from it whether the kernel is a little imprecise (TF32,
// fused multiply-add: declare the precision) or computes something else.
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/kernel_scenario.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::kernels {

struct ValueDistance {
  // Units in the last place of `dtype` between the two values; nullopt for integer dtypes and
  // where a NaN or an infinity makes it meaningless.
  std::optional<std::uint64_t> ulp;
  // |actual - expected| / |expected|; infinite when expected is 0 and actual is not, nullopt
  // where a NaN or an infinity makes it meaningless.
  std::optional<double> relative;
  double absolute = 0;  // |actual - expected| (NaN when either is NaN)
};

// For a complex dtype the values are one part of an element, measured in the part dtype.
ValueDistance MeasureDistance(TF_DataType dtype, double expected, double actual);

// "rtol=1e-05 atol=0 ulp=4", or "exact".
std::string ToleranceText(const Tolerance& tolerance);
// "12 ULP, relative 3.1e-04" (integers: "off by 3, relative 0.5"; NaN or infinities: "n/a").
std::string DistanceText(const ValueDistance& distance);

}  // namespace conformance::kernels
